import { listAvailableDates } from '../../shared/catalog/availability';
import { httpHandler, ok } from '../../shared/http/handler';
import { activityIdPath, type ActivityPath } from '../../shared/catalog/schemas';
import { isoDate } from '../../shared/core/day-schemas';

const query = {
  type: 'object',
  required: ['StartDate', 'EndDate'],
  properties: { StartDate: isoDate, EndDate: isoDate },
};

export const handler = httpHandler<ActivityPath, { StartDate: string; EndDate: string }>(
  { path: activityIdPath, query },
  async ({ caller, path, query }) => ok(await listAvailableDates(caller, path.ActivityID, query.StartDate, query.EndDate)),
);
