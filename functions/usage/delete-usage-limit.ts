import { validators } from '../../shared/api/validators/delete-usage-limit.generated';
import { httpHandler, noContent } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { deleteUsageLimit } from '../../shared/usage/limits';

export const handler = httpHandler(
  validators,
  async ({ caller, path }) => {
    await deleteUsageLimit(caller.operatorId, path.LimitID);
    return noContent();
  },
  problemFace,
);
