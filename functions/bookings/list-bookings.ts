import { validators } from '../../shared/api/validators/list-bookings.generated';
import { listOperatorBookings } from '../../shared/booking/list';
import { operatorManifest, queryKind } from '../../shared/booking/manifest';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

/** Either the list by creation day (from, to, channel, limit, cursor) or the manifest of a timeslot day (date, activity). */
export const handler = httpHandler(
  validators,
  async ({ caller, query }) => {
    const kind = queryKind(query);
    return ok(
      kind.manifest ? await operatorManifest(caller, kind.manifest.date, query.activity) : await listOperatorBookings(caller, kind.list),
    );
  },
  problemFace,
);
