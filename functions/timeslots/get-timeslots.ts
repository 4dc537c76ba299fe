import { validators } from '../../shared/api/validators/get-timeslots.generated';
import { operatorDay } from '../../shared/booking/operator-timeslots';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, query }) => ok(await operatorDay(caller, path.ActivityID, query.date)),
  problemFace,
);
