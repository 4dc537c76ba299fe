import { validators } from '../../shared/api/validators/record-usage-batch.generated';
import { created, httpHandler } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { recordUsageBatch } from '../../shared/usage/record-batch';

export const handler = httpHandler(
  validators,
  async ({ caller, body }) => created({ Entries: await recordUsageBatch(caller.operatorId, body.Entries) }),
  problemFace,
);
