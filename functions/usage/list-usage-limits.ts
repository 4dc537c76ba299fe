import { validators } from '../../shared/api/validators/list-usage-limits.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { listUsageLimits } from '../../shared/usage/limits';

export const handler = httpHandler(validators, async ({ caller }) => ok(await listUsageLimits(caller.operatorId)), problemFace);
