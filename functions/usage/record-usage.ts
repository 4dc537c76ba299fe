import { validators } from '../../shared/api/validators/record-usage.generated';
import { created, httpHandler } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { recordUsage } from '../../shared/usage/record-usage';

/** No Location: entries are read through summaries, not one by one. */
export const handler = httpHandler(
  validators,
  async ({ caller, body, headers }) => {
    const { entry, replayed } = await recordUsage(caller.operatorId, body, { idempotencyKey: headers['idempotency-key'] });
    return created(entry, { replayed });
  },
  problemFace,
);
