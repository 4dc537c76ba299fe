import { listAvailableTimeslots } from '../../shared/catalog/availability';
import { httpHandler, ok } from '../../shared/http/handler';
import { activityIdPath, type ActivityPath } from '../../shared/catalog/schemas';
import { isoDate } from '../../shared/core/day-schemas';

const query = {
  type: 'object',
  required: ['Date'],
  properties: { Date: isoDate },
};

export const handler = httpHandler<ActivityPath, { Date: string }>({ path: activityIdPath, query }, async ({ caller, path, query }) =>
  ok(await listAvailableTimeslots(caller, path.ActivityID, query.Date)),
);
