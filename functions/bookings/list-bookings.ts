import { MAX_PAGE_SIZE, listOperatorBookings, type BookingListQuery } from '../../shared/booking/list';
import { CHANNELS } from '../../shared/booking/model';
import { httpHandler, ok } from '../../shared/http/handler';
import { dayRangeQuery } from '../../shared/core/day-schemas';

const query = {
  type: 'object',
  required: [...dayRangeQuery.required],
  properties: {
    ...dayRangeQuery.properties,
    channel: { type: 'string', enum: [...CHANNELS], errorMessage: `must be one of ${CHANNELS.join(', ')}` },
    limit: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,3}$',
      errorMessage: `must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    },
    cursor: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', errorMessage: 'must be a NextCursor returned by this list' },
  },
};

export const handler = httpHandler<unknown, BookingListQuery>({ query }, async ({ caller, query }) =>
  ok(await listOperatorBookings(caller, query)),
);
