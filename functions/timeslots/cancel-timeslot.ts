import { validators } from '../../shared/api/validators/cancel-timeslot.generated';
import { editorOf } from '../../shared/booking/operator-timeslots';
import { cancelTimeslotOnce, whileTimeLeft } from '../../shared/booking/timeslot-cancellation';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, body, headers, remainingMs }) => {
    const slot = { activityId: path.ActivityID, date: path.Date, time: path.Time };
    const work = { proceed: whileTimeLeft(remainingMs) };
    const { answer, replayed } = await cancelTimeslotOnce(editorOf(caller), slot, body.Reason, headers['idempotency-key'], work);
    return ok(answer, { replayed });
  },
  problemFace,
);
