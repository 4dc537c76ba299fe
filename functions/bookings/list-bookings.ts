import { ACTIVITY_ID_PATTERN } from '../../shared/catalog/model';
import { MAX_PAGE_SIZE, listOperatorBookings, type BookingListQuery } from '../../shared/booking/list';
import { operatorManifest, queryKind, type ManifestOrListQuery } from '../../shared/booking/manifest';
import { CHANNELS } from '../../shared/booking/model';
import { httpHandler, ok } from '../../shared/http/handler';
import { dayRangeQuery, isoDate } from '../../shared/core/day-schemas';

/** Either the list by creation day (from, to, channel, limit, cursor) or the manifest of a timeslot day (date, activity). */
const query = {
  type: 'object',
  properties: {
    ...dayRangeQuery.properties,
    channel: { type: 'string', enum: [...CHANNELS], errorMessage: `must be one of ${CHANNELS.join(', ')}` },
    limit: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,3}$',
      errorMessage: `must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    },
    cursor: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', errorMessage: 'must be a NextCursor returned by this list' },
    date: { ...isoDate, description: "Manifest: the timeslots' day, in the operator's time zone" },
    activity: {
      type: 'string',
      pattern: ACTIVITY_ID_PATTERN,
      errorMessage: "must be an ActivityID: 's_' followed by 1 to 64 letters or digits",
    },
  },
};

export const handler = httpHandler<unknown, ManifestOrListQuery>({ query }, async ({ caller, query }) =>
  ok(
    queryKind(query) === 'manifest'
      ? await operatorManifest(caller.operatorId, query.date as string, query.activity)
      : await listOperatorBookings(caller, query as BookingListQuery),
  ),
);
