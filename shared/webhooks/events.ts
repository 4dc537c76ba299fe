import { randomBytes } from 'node:crypto';
import type { DeliveryItem, WebhookEvent, WebhookEventType } from './model';
import { getEndpoint } from './repository';
import { QUEUED_ATTEMPT_LEASE_MS } from './schedule';

/**
 * Events for partners. The domain that changes something asks for the
 * delivery of its event (none when the partner has no endpoint) and writes
 * it in the transaction of the change. That is all it does: the table's
 * stream hands the written delivery to the sender, so an event can neither
 * be sent for a change that failed nor be lost after one that succeeded.
 */

/** `msg_` and 24 random characters: the Standard Webhooks `webhook-id`. */
const newDeliveryId = () => `msg_${randomBytes(18).toString('base64url')}`;

type Partner = { operatorId: string; keyId: string };

/** Whether the partner has an endpoint (read on its own when a caller can overlap it with other reads). */
export const partnerListens = async (partner: Partner): Promise<boolean> =>
  (await getEndpoint(partner.operatorId, partner.keyId)) !== undefined;

/** The delivery of an event to a partner known to listen. */
export function newDelivery(partner: Partner, type: WebhookEventType, data: unknown, now: Date): DeliveryItem {
  const event: WebhookEvent = { type, timestamp: now.toISOString(), data };
  return {
    DeliveryID: newDeliveryId(),
    OperatorID: partner.operatorId,
    KeyID: partner.keyId,
    EventType: type,
    Payload: JSON.stringify(event),
    CreatedAt: now.toISOString(),
    Status: 'PENDING',
    Attempts: 0,
    // Attempted as soon as the stream hands it over; due for the retry sweep only if that first attempt never happens.
    QueuedAt: now.toISOString(),
    NextAttemptAt: new Date(now.getTime() + QUEUED_ATTEMPT_LEASE_MS).toISOString(),
  };
}
