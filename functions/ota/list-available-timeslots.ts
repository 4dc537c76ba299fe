import { validators } from '../../shared/api/validators/list-available-timeslots.generated';
import { listAvailableTimeslots } from '../../shared/catalog/availability';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, query }) => ok(await listAvailableTimeslots(caller, path.ActivityID, query.Date)),
  problemFace,
);
