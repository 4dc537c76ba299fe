import { validators } from '../../shared/api/validators/add-timeslots.generated';
import { addOperatorTimeslots, editorOf } from '../../shared/booking/operator-timeslots';
import { created, httpHandler } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, path, body }) =>
  created(await addOperatorTimeslots(editorOf(caller), path.ActivityID, body)),
);
