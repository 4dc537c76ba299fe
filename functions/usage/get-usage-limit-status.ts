import { validators } from '../../shared/api/validators/get-usage-limit-status.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { usageLimitStatus } from '../../shared/usage/limit-status';

export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok(await usageLimitStatus(caller.operatorId, path.LimitID)),
  problemFace,
);
