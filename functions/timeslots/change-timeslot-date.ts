import { validators } from '../../shared/api/validators/change-timeslot-date.generated';
import { changeOperatorDate, editorOf } from '../../shared/booking/operator-timeslots';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, body }) => ok(await changeOperatorDate(editorOf(caller), { activityId: path.ActivityID, date: path.Date }, body)),
  problemFace,
);
