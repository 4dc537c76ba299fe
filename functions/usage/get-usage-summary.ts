import { httpHandler, ok } from '../../shared/http/handler';
import { dayRangeQuery } from '../../shared/core/day-schemas';
import { GRANULARITIES, type Dimensions, type Granularity } from '../../shared/usage/model';
import { summaryDimensionParameters } from '../../shared/usage/request-schema';
import { summarizeUsage } from '../../shared/usage/summary';

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
    ...summaryDimensionParameters,
  },
};

interface SummaryQuery {
  from: string;
  to: string;
  tz?: string;
  granularity?: Granularity;
  groupBy?: string;
  filter?: Dimensions;
}

export const handler = httpHandler<unknown, SummaryQuery>({ query }, async ({ caller, query: { groupBy, ...rest } }) =>
  ok((await summarizeUsage(caller.operatorId, { ...rest, groupBy: groupBy?.split(',') })).summary),
);
