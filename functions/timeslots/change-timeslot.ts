import { validators } from '../../shared/api/validators/change-timeslot.generated';
import { changeOperatorTimeslot, editorOf } from '../../shared/booking/operator-timeslots';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, body }) =>
    ok(await changeOperatorTimeslot(editorOf(caller), { activityId: path.ActivityID, date: path.Date, time: path.Time }, body)),
  problemFace,
);
