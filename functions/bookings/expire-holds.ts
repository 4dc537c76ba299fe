import { expireDueHolds } from '../../shared/booking/holds';
import { finishDueCancellations } from '../../shared/booking/timeslot-cancellation';
import { scheduledHandler } from '../../shared/core/scheduled';

/**
 * Every minute: holds whose HoldExpiresAt has passed become EXPIRED and give their places back, and the
 * cancellations of timeslots a request left unfinished are carried on.
 */
export const handler = scheduledHandler('expire-holds', async () => ({
  expired: await expireDueHolds(),
  timeslotCancellationsFinished: await finishDueCancellations(),
}));
