import { Webhook } from 'standardwebhooks';
import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import type { DeliveryItem, DeliveryMessage } from './model';
import { webhookKeys } from '../db/keys';
import { putOnBus } from './event-bus';
import { post, type PostOutcome } from './outbound';
import { getDelivery, getEndpoint, getSubscription, rescheduleDelivery, settleDelivery } from './repository';
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

export function signedHeaders(delivery: Pick<DeliveryItem, 'DeliveryID' | 'Payload'>, secret: string, at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': delivery.DeliveryID,
    'webhook-timestamp': String(unixSeconds(at)),
    'webhook-signature': new Webhook(secret).sign(delivery.DeliveryID, at, delivery.Payload),
  };
}

/**
 * Where a delivery goes and the headers it carries, or why it cannot go:
 * a partner key's endpoint or the operator's usage endpoint, signed with its
 * secret; or an OCTo subscription, with the headers the subscriber set
 * (OCTo's subscriptions have no secret: the subscriber authenticates
 * deliveries by its own headers).
 */
async function destinationOf(
  delivery: DeliveryItem,
  now: Date,
): Promise<{ url: string; headers: Record<string, string> } | { gone: string }> {
  if (delivery.Target === 'octo-subscription') {
    const subscription = await getSubscription(delivery.OperatorID, delivery.KeyID as string, delivery.SubscriptionID as string);
    if (!subscription) return { gone: 'the reseller removed its subscription' };
    const headers = {
      ...subscription.Headers,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': delivery.DeliveryID,
      'webhook-timestamp': String(unixSeconds(now)),
    };
    return { url: subscription.Url, headers };
  }
  const usage = delivery.Target === 'usage-webhook';
  const key = usage ? webhookKeys.usageEndpoint(delivery.OperatorID) : webhookKeys.endpoint(delivery.OperatorID, delivery.KeyID as string);
  const endpoint = await getEndpoint(key);
  if (!endpoint) return { gone: `the ${usage ? 'operator' : 'partner'} removed its webhook endpoint` };
  return { url: endpoint.Url, headers: signedHeaders(delivery, endpoint.Secret, now) };
}

/** One attempt: a PutEvents for EventBridge, a POST for any other target. */
async function attempt(delivery: DeliveryItem, now: Date): Promise<PostOutcome | { gone: string }> {
  if (delivery.Target === 'event-bridge') return putOnBus(delivery);
  const destination = await destinationOf(delivery, now);
  if ('gone' in destination) return destination;
  return post(destination.url, delivery.Payload, destination.headers, config(), ATTEMPT_TIMEOUT_MS);
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
  const outcome = await attempt(delivery, now);
  if ('gone' in outcome) return settle(delivery, queuedAt, 'FAILED', now, outcome.gone);
  if (outcome.ok && outcome.status >= 200 && outcome.status < 300) return settle(delivery, queuedAt, 'DELIVERED', now);
  const lastError = outcome.ok ? `answered ${outcome.status}` : outcome.error;
  const next = nextAttemptAfterFailure(new Date(delivery.CreatedAt), delivery.Attempts + 1, now);
  if (!next) return settle(delivery, queuedAt, 'FAILED', now, lastError);
  const moved = await rescheduleDelivery(delivery, queuedAt, { next: next.toISOString(), attempts: delivery.Attempts + 1, lastError });
  return moved ? 'retry-scheduled' : 'not-pending';
}
