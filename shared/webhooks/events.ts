import { createHash, randomBytes } from 'node:crypto';
import { eventTypesOf, type DeliveryItem, type OctoNotificationType, type WebhookEvent, type WebhookEventType } from './model';
import { getEndpoint } from './repository';
import { QUEUED_ATTEMPT_LEASE_MS } from './schedule';

/**
 * Events for partners. The domain that changes something asks for the
 * delivery of its event (none when the partner has no endpoint for it) and
 * writes it in the transaction of the change. That is all it does: the
 * table's stream hands the written delivery to the sender, so an event can
 * neither be sent for a change that failed nor be lost after one that
 * succeeded. Announcements (shared/changes) write deliveries whose ID is
 * derived from what they announce, so that writing one twice writes it once.
 */

/** `msg_` and 24 random characters: the Standard Webhooks `webhook-id`. */
const newDeliveryId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** `msg_` and 24 characters of the SHA-256 of what the delivery is: the same announcement to the same listener, the same ID. */
export const derivedDeliveryId = (...parts: string[]) =>
  `msg_${createHash('sha256').update(parts.join('\n'), 'utf8').digest('base64url').slice(0, 24)}`;

type Partner = { operatorId: string; keyId: string };

/** Whether the partner has an endpoint that receives `type` (read on its own when a caller can overlap it with other reads). */
export const partnerListens = async (partner: Partner, type: WebhookEventType): Promise<boolean> => {
  const endpoint = await getEndpoint(partner.operatorId, partner.keyId);
  return endpoint !== undefined && eventTypesOf(endpoint).includes(type);
};

interface DeliveryOptions {
  /** The delivery's ID; a new random one unless given (derivedDeliveryId). */
  id?: string;
  /** An OCTo subscription of the partner's key, instead of its endpoint. */
  subscriptionId?: string;
}

/** The delivery of an event to a partner known to listen. */
export function newDelivery(
  partner: Partner,
  type: WebhookEventType | OctoNotificationType,
  data: unknown,
  now: Date,
  options: DeliveryOptions = {},
): DeliveryItem {
  const event: WebhookEvent = { type, timestamp: now.toISOString(), data };
  return {
    DeliveryID: options.id ?? newDeliveryId(),
    OperatorID: partner.operatorId,
    KeyID: partner.keyId,
    EventType: type,
    ...(options.subscriptionId ? { Target: 'octo-subscription', SubscriptionID: options.subscriptionId } : {}),
    Payload: JSON.stringify(event),
    CreatedAt: now.toISOString(),
    Status: 'PENDING',
    Attempts: 0,
    // Attempted as soon as the stream hands it over; due for the retry sweep only if that first attempt never happens.
    QueuedAt: now.toISOString(),
    NextAttemptAt: new Date(now.getTime() + QUEUED_ATTEMPT_LEASE_MS).toISOString(),
  };
}
