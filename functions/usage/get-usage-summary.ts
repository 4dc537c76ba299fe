import { validators } from '../../shared/api/validators/get-usage-summary.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { summarizeUsage } from '../../shared/usage/summary';

export const handler = httpHandler(
  validators,
  async ({ caller, query }) => ok((await summarizeUsage(caller.operatorId, query)).summary),
  problemFace,
);
