import { httpHandler, ok } from '../../shared/http/handler';
import { dayRangeQuery } from '../../shared/core/day-schemas';
import { GRANULARITIES } from '../../shared/usage/model';
import { summarizeUsage, type UsageSummaryRequest } from '../../shared/usage/summary';

const query = {
  type: 'object',
  required: [...dayRangeQuery.required],
  properties: {
    ...dayRangeQuery.properties,
    tz: { type: 'string', minLength: 1, maxLength: 64, errorMessage: 'must be an IANA time zone name such as Europe/Lisbon' },
    granularity: {
      type: 'string',
      enum: [...GRANULARITIES],
      errorMessage: `must be one of ${GRANULARITIES.map((g) => `'${g}'`).join(', ')} when given`,
    },
  },
};

export const handler = httpHandler<unknown, UsageSummaryRequest>({ query }, async ({ caller, query }) =>
  ok((await summarizeUsage(caller.operatorId, query)).summary),
);
