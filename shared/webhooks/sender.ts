import { Webhook } from 'standardwebhooks';
import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import type { DeliveryItem, DeliveryMessage } from './model';
import { webhookKeys } from '../db/keys';
import { putOnBus } from './event-bus';
import { post, type PostOutcome } from './outbound';
import { getDelivery, getEndpoint, rescheduleDelivery, settleDelivery } from './repository';
import { ATTEMPT_TIMEOUT_MS, SETTLED_RETENTION_SECONDS, nextAttemptAfterFailure } from './schedule';

/**
 * One attempt at one delivery: to an endpoint, signed as Standard Webhooks specifies:
 * `webhook-id` (the delivery's, the same on every attempt),
 * `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature`
 * (`v1,` HMAC-SHA256 of `id.timestamp.body` with the endpoint's secret).
 * The request carries those, the content type and a user agent: nothing of
 * the operator's or of any API key. Or, for a delivery to EventBridge, one
 * PutEvents of its Payload as the detail (event-bus.ts).
 */
export const USER_AGENT = 'ota-usage-webhooks/1';

export type AttemptResult = 'delivered' | 'retry-scheduled' | 'failed' | 'not-pending';

/** The endpoint a webhook delivery goes to: its partner key's, or the operator's usage endpoint. */
const endpointKeyOf = (delivery: DeliveryItem) =>
  delivery.Target === 'usage-webhook'
    ? webhookKeys.usageEndpoint(delivery.OperatorID)
    : webhookKeys.endpoint(delivery.OperatorID, delivery.KeyID as string);

export function signedHeaders(delivery: Pick<DeliveryItem, 'DeliveryID' | 'Payload'>, secret: string, at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': delivery.DeliveryID,
    'webhook-timestamp': String(unixSeconds(at)),
    'webhook-signature': new Webhook(secret).sign(delivery.DeliveryID, at, delivery.Payload),
  };
}

async function settle(
  delivery: DeliveryItem,
  queuedAt: string,
  status: 'DELIVERED' | 'FAILED',
  now: Date,
  lastError?: string,
): Promise<AttemptResult> {
  const settled = await settleDelivery(delivery, queuedAt, {
    status,
    at: now.toISOString(),
    attempts: delivery.Attempts + 1,
    lastError,
    expiresAt: unixSeconds(now) + SETTLED_RETENTION_SECONDS,
  });
  if (!settled) return 'not-pending';
  return status === 'DELIVERED' ? 'delivered' : 'failed';
}

/**
 * The attempt queued at `message.QueuedAt`, once: a message handed over
 * again (the stream delivers at least once, and a batch retried after a
 * failure hands over its later records again), or one overtaken by a later
 * queueing, finds the delivery no longer queued at that time and is skipped.
 */
export async function attemptDelivery(message: DeliveryMessage, now: Date = config().clock()): Promise<AttemptResult> {
  const delivery = await getDelivery(message.OperatorID, message.DeliveryID);
  if (delivery?.Status !== 'PENDING' || delivery.QueuedAt !== message.QueuedAt) return 'not-pending';
  const queuedAt = message.QueuedAt;
  let outcome: PostOutcome;
  if (delivery.Target === 'event-bridge') outcome = await putOnBus(delivery);
  else {
    const endpoint = await getEndpoint(endpointKeyOf(delivery));
    if (!endpoint)
      return settle(delivery, queuedAt, 'FAILED', now, `the ${delivery.KeyID ? 'partner' : 'operator'} removed its webhook endpoint`);
    outcome = await post(endpoint.Url, delivery.Payload, signedHeaders(delivery, endpoint.Secret, now), config(), ATTEMPT_TIMEOUT_MS);
  }
  if (outcome.ok && outcome.status >= 200 && outcome.status < 300) return settle(delivery, queuedAt, 'DELIVERED', now);
  const lastError = outcome.ok ? `answered ${outcome.status}` : outcome.error;
  const next = nextAttemptAfterFailure(new Date(delivery.CreatedAt), delivery.Attempts + 1, now);
  if (!next) return settle(delivery, queuedAt, 'FAILED', now, lastError);
  const moved = await rescheduleDelivery(delivery, queuedAt, { next: next.toISOString(), attempts: delivery.Attempts + 1, lastError });
  return moved ? 'retry-scheduled' : 'not-pending';
}
