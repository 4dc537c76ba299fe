import { validators } from '../../shared/api/validators/get-usage-limit.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { getUsageLimit } from '../../shared/usage/limits';

export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok(await getUsageLimit(caller.operatorId, path.LimitID)),
  problemFace,
);
