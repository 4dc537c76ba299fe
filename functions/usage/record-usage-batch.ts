import { created, httpHandler } from '../../shared/http/handler';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import { usageBatchSchema } from '../../shared/usage/request-schema';
import type { BatchEntryInput } from '../../shared/usage/model';

export const handler = httpHandler<unknown, unknown, { Entries: BatchEntryInput[] }>({ body: usageBatchSchema }, async ({ caller, body }) =>
  created({ Entries: await recordUsageBatch(caller.operatorId, body.Entries) }),
);
