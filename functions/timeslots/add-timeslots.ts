import { validators } from '../../shared/api/validators/add-timeslots.generated';
import { addOperatorTimeslots, editorOf } from '../../shared/booking/operator-timeslots';
import { created, httpHandler } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, body }) => created(await addOperatorTimeslots(editorOf(caller), path.ActivityID, body)),
  problemFace,
);
