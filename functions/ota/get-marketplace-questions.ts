import { validators } from '../../shared/api/validators/get-marketplace-questions.generated';
import { getActivityQuestions } from '../../shared/catalog/questions';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

/** The marketplace form: the questions together with the activity they belong to. */
export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok(await getActivityQuestions(caller, path.ActivityID)),
  problemFace,
);
