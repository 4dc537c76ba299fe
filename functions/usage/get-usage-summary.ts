import { httpHandler, ok } from '../../shared/http/handler';
import { dayRangeQuery } from '../../shared/core/day-schemas';
import { summarizeUsage, type UsageSummaryRequest } from '../../shared/usage/summary';

const query = {
  type: 'object',
  required: [...dayRangeQuery.required],
  properties: {
    ...dayRangeQuery.properties,
    tz: { type: 'string', minLength: 1, maxLength: 64, errorMessage: 'must be an IANA time zone name such as Europe/Lisbon' },
    granularity: { type: 'string', enum: ['day'], errorMessage: "must be 'day' when given" },
  },
};

export const handler = httpHandler<unknown, UsageSummaryRequest>({ query }, async ({ caller, query }) =>
  ok((await summarizeUsage(caller.operatorId, query)).summary),
);
