import { validators } from '../../shared/api/validators/list-available-dates.generated';
import { listAvailableDates } from '../../shared/catalog/availability';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, query }) => ok(await listAvailableDates(caller, path.ActivityID, query.StartDate, query.EndDate)),
  problemFace,
);
