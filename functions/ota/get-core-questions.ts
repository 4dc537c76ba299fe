import { validators } from '../../shared/api/validators/get-core-questions.generated';
import { getActivityQuestions } from '../../shared/catalog/questions';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

/** The core form: the bare list of questions. */
export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok((await getActivityQuestions(caller, path.ActivityID)).Questions),
  problemFace,
);
