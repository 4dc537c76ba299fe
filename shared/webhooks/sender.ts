import { Webhook } from 'standardwebhooks';
import { isKeyActive } from '../accounts/api-keys';
import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { logError } from '../core/observability';
import { isMarkedFailing, markedFailingError, recordAttemptOutcome } from './endpoint-health';
import type { DeliveryItem, DeliveryMessage, WebhookEndpointItem } from './model';
import * as webhookKeys from '../db/webhook-keys';
import { putOnBus } from './event-bus';
import { post, type PostOutcome } from './outbound';
import { releaseLane, takeLane } from './partner-lanes';
import { deferDelivery, getDelivery, getEndpoint, getSubscription, rescheduleDelivery, settleDelivery } from './repository';
import { signingSecrets } from './signing-secrets';
import { ATTEMPT_TIMEOUT_MS, KEY_REVOKED, SETTLED_RETENTION_SECONDS, nextAttemptAfterFailure } from './schedule';

/**
 * One attempt at one delivery: to an endpoint, signed as Standard Webhooks specifies:
 * `webhook-id` (the delivery's, the same on every attempt),
 * `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature`
 * (`v1,` HMAC-SHA256 of `id.timestamp.body` with the endpoint's secret; while
 * a replaced secret is in its overlap, a second signature with it, after
 * the first, space-separated: signing-secrets.ts).
 * The request carries those, the content type and a user agent: nothing of
 * the operator's or of any API key. Or, for a delivery to EventBridge, one
 * PutEvents of its Payload as the detail (event-bus.ts).
 */
export const USER_AGENT = 'ota-usage-webhooks/1';

export type AttemptResult = 'delivered' | 'retry-scheduled' | 'deferred' | 'failed' | 'not-pending';

export function signedHeaders(
  delivery: Pick<DeliveryItem, 'DeliveryID' | 'Payload'>,
  secrets: readonly string[],
  at: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': delivery.DeliveryID,
    'webhook-timestamp': String(unixSeconds(at)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(delivery.DeliveryID, at, delivery.Payload)).join(' '),
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
  if (delivery.Target === 'event-bridge') return recordAttempt(delivery, queuedAt, await putOnBus(delivery), now);
  // A revoked key is told nothing more, even through an endpoint registered while its last authorizations were cached.
  if (delivery.KeyID !== undefined && !(await isKeyActive(delivery.OperatorID, delivery.KeyID))) {
    return settle(delivery, queuedAt, 'FAILED', now, KEY_REVOKED);
  }
  if (delivery.Target === 'octo-subscription') return attemptSubscription(delivery, queuedAt, now);
  return attemptEndpoint(delivery, queuedAt, now);
}

/** An OCTo subscription's delivery, with the headers the subscriber set (OCTo's subscriptions have no secret: the subscriber authenticates deliveries by its own headers). */
async function attemptSubscription(delivery: DeliveryItem, queuedAt: string, now: Date): Promise<AttemptResult> {
  const subscription = await getSubscription(delivery.OperatorID, delivery.KeyID as string, delivery.SubscriptionID as string);
  if (!subscription) return settle(delivery, queuedAt, 'FAILED', now, 'the reseller removed its subscription');
  const headers = {
    ...subscription.Headers,
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': delivery.DeliveryID,
    'webhook-timestamp': String(unixSeconds(now)),
  };
  return recordAttempt(delivery, queuedAt, await post(subscription.Url, delivery.Payload, headers, config(), ATTEMPT_TIMEOUT_MS), now);
}

/**
 * The delivery's headers signed with every secret of the endpoint, or the
 * failed attempt it makes when KMS refuses (or cannot be reached for) one:
 * retried as any other, and logged, the receiver not to blame.
 */
async function signedFor(
  delivery: DeliveryItem,
  endpoint: WebhookEndpointItem,
  now: Date,
): Promise<{ headers: Record<string, string> } | { failure: PostOutcome }> {
  try {
    return { headers: signedHeaders(delivery, await signingSecrets(endpoint, now), now) };
  } catch (error) {
    logError('Webhook signing secret not decrypted', { operatorId: delivery.OperatorID, keyId: delivery.KeyID, error });
    return { failure: { ok: false, error: `the endpoint's signing secret could not be decrypted (${(error as Error)?.name ?? 'Error'})` } };
  }
}

/**
 * A delivery to a partner key's endpoint or to the operator's usage
 * endpoint, signed with its secrets: none while the endpoint is marked
 * failing, and only in one of its lanes (partner-lanes.ts), taken before
 * the secrets are read, as soon as the endpoint is, so that the lanes' times
 * are those of the attempts' requests.
 */
async function attemptEndpoint(delivery: DeliveryItem, queuedAt: string, now: Date): Promise<AttemptResult> {
  const usage = delivery.Target === 'usage-webhook';
  const key = usage ? webhookKeys.usageEndpoint(delivery.OperatorID) : webhookKeys.endpoint(delivery.OperatorID, delivery.KeyID as string);
  const endpoint = await getEndpoint(key);
  if (!endpoint) return settle(delivery, queuedAt, 'FAILED', now, `the ${usage ? 'operator' : 'partner'} removed its webhook endpoint`);
  if (isMarkedFailing(endpoint)) return settle(delivery, queuedAt, 'FAILED', now, markedFailingError(endpoint));
  const lane = await takeLane(endpoint, now);
  if (!lane) return (await deferDelivery(delivery, queuedAt, now.toISOString())) ? 'deferred' : 'not-pending';
  const signed = await signedFor(delivery, endpoint, now);
  const outcome =
    'headers' in signed ? await post(endpoint.Url, delivery.Payload, signed.headers, config(), ATTEMPT_TIMEOUT_MS) : signed.failure;
  // The lane bounds requests in flight, so it is freed once the answer is in, while the attempt is recorded.
  const [result] = await Promise.all([recordAttempt(delivery, queuedAt, outcome, now), releaseLane(endpoint, lane)]);
  // After the attempt is recorded: a failure here retries the record, which then finds the delivery no longer queued, and sends nothing twice.
  if (result !== 'not-pending' && 'headers' in signed) await recordAttemptOutcome(endpoint, delivery, result === 'delivered', now);
  return result;
}

async function recordAttempt(delivery: DeliveryItem, queuedAt: string, outcome: PostOutcome, now: Date): Promise<AttemptResult> {
  if (outcome.ok && outcome.status >= 200 && outcome.status < 300) return settle(delivery, queuedAt, 'DELIVERED', now);
  const lastError = outcome.ok ? `answered ${outcome.status}` : outcome.error;
  const next = nextAttemptAfterFailure(new Date(delivery.CreatedAt), delivery.Attempts + 1, now);
  if (!next) return settle(delivery, queuedAt, 'FAILED', now, lastError);
  const moved = await rescheduleDelivery(delivery, queuedAt, { next: next.toISOString(), attempts: delivery.Attempts + 1, lastError });
  return moved ? 'retry-scheduled' : 'not-pending';
}
