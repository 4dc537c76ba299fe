import { validators } from '../../shared/api/validators/cancel-timeslot.generated';
import { editorOf } from '../../shared/booking/operator-timeslots';
import { cancelTimeslotOnce } from '../../shared/booking/timeslot-cancellation';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, path, body, headers }) => {
  const slot = { activityId: path.ActivityID, date: path.Date, time: path.Time };
  const { answer, replayed } = await cancelTimeslotOnce(editorOf(caller), slot, body.Reason, headers['idempotency-key']);
  return ok(answer, { replayed });
});
