import { validators } from '../../shared/api/validators/put-usage-limit.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { putUsageLimit } from '../../shared/usage/limits';

export const handler = httpHandler(
  validators,
  async ({ caller, path, body }) => ok(await putUsageLimit(caller, path.LimitID, body)),
  problemFace,
);
