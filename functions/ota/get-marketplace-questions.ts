import { getActivityQuestions } from '../../shared/catalog/questions';
import { httpHandler, ok } from '../../shared/http/handler';
import { activityIdPath, type ActivityPath } from '../../shared/catalog/schemas';

/** The marketplace form: the questions together with the activity they belong to. */
export const handler = httpHandler<ActivityPath>({ path: activityIdPath }, async ({ caller, path }) =>
  ok(await getActivityQuestions(caller, path.ActivityID)),
);
