import { revokeApiKey } from '../accounts/api-keys';
import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import * as webhookKeys from '../db/webhook-keys';
import { abandonDelivery, deleteEndpoint, queryPendingDeliveriesOf } from './repository';
import { KEY_REVOKED, SETTLED_RETENTION_SECONDS } from './schedule';

/**
 * Revoking a partner key ends its webhooks too: its endpoint is removed and
 * every delivery still pending to it is given up (FAILED, `the API key was
 * revoked`), so nothing more is sent to whoever held the key. The sender
 * also checks the key before each attempt (sender.ts): a delivery written
 * while the revocation ran, or an endpoint registered again in the minute
 * the authorizer still answers for the key from its cache, sends nothing.
 */
export async function revokePartnerKey(operatorId: string, keyId: string, now: Date = config().clock()): Promise<{ givenUp: number }> {
  await revokeApiKey(operatorId, keyId);
  await deleteEndpoint(webhookKeys.endpoint(operatorId, keyId));
  const pending = await queryPendingDeliveriesOf(operatorId, keyId);
  const expiresAt = unixSeconds(now) + SETTLED_RETENTION_SECONDS;
  let givenUp = 0;
  // One at a time: a key failing for a day may have many, and a revocation is no hurry.
  for (const delivery of pending) if (await abandonDelivery(delivery, KEY_REVOKED, expiresAt)) givenUp += 1;
  return { givenUp };
}
