import { created, httpHandler } from '../../shared/http/handler';
import { recordUsage } from '../../shared/usage/record-usage';
import { usageEntrySchema } from '../../shared/usage/request-schema';
import type { UsageInput } from '../../shared/usage/model';

/** No Location: entries are read through summaries, not one by one. */
export const handler = httpHandler<unknown, unknown, UsageInput>({ body: usageEntrySchema }, async ({ caller, body, headers }) => {
  const { entry, replayed } = await recordUsage(caller.operatorId, body, { idempotencyKey: headers['idempotency-key'] });
  return created(entry, { replayed });
});
