import { randomBytes } from 'node:crypto';
import type { DeliveryItem, WebhookEvent, WebhookEventType } from './model';
import { webhookKeys } from '../db/keys';
import { getEndpoint } from './repository';
import { QUEUED_ATTEMPT_LEASE_MS } from './schedule';

/**
 * Events for partners and operators. The domain that changes something asks
 * for the delivery of its event (none when the partner has no endpoint) and
 * writes it in the transaction of the change. That is all it does: the table's
 * stream hands the written delivery to the sender, so an event can neither
 * be sent for a change that failed nor be lost after one that succeeded.
 */

/** `msg_` and 24 random characters: the Standard Webhooks `webhook-id`. */
const newDeliveryId = () => `msg_${randomBytes(18).toString('base64url')}`;

type Partner = { operatorId: string; keyId: string };

/** Whether the partner has an endpoint (read on its own when a caller can overlap it with other reads). */
export const partnerListens = async (partner: Partner): Promise<boolean> =>
  (await getEndpoint(webhookKeys.endpoint(partner.operatorId, partner.keyId))) !== undefined;

/** Whether the operator has a usage webhook endpoint. */
export const usageWebhookListens = async (operatorId: string): Promise<boolean> =>
  (await getEndpoint(webhookKeys.usageEndpoint(operatorId))) !== undefined;

/** A delivery of `payload`, attempted as soon as the stream hands it over. */
function queuedDelivery(
  operatorId: string,
  type: WebhookEventType,
  receiver: Pick<DeliveryItem, 'KeyID' | 'Target' | 'Source' | 'DetailType'>,
  payload: (deliveryId: string) => unknown,
  now: Date,
): DeliveryItem {
  const deliveryId = newDeliveryId();
  return {
    DeliveryID: deliveryId,
    OperatorID: operatorId,
    ...receiver,
    EventType: type,
    Payload: JSON.stringify(payload(deliveryId)),
    CreatedAt: now.toISOString(),
    Status: 'PENDING',
    Attempts: 0,
    // Attempted as soon as the stream hands it over; due for the retry sweep only if that first attempt never happens.
    QueuedAt: now.toISOString(),
    NextAttemptAt: new Date(now.getTime() + QUEUED_ATTEMPT_LEASE_MS).toISOString(),
  };
}

const webhookEvent = (type: WebhookEventType, data: unknown, now: Date): WebhookEvent => ({ type, timestamp: now.toISOString(), data });

/** The delivery of an event to a partner known to listen. */
export const newDelivery = (partner: Partner, type: WebhookEventType, data: unknown, now: Date): DeliveryItem =>
  queuedDelivery(partner.operatorId, type, { KeyID: partner.keyId }, () => webhookEvent(type, data, now), now);

/** The delivery of an event to the operator's usage endpoint, known to exist. */
export const newUsageWebhookDelivery = (operatorId: string, type: WebhookEventType, data: unknown, now: Date): DeliveryItem =>
  queuedDelivery(operatorId, type, { Target: 'usage-webhook' }, () => webhookEvent(type, data, now), now);

/**
 * The delivery of an event to the account's default EventBridge bus: its
 * detail is the event a webhook would carry, with the delivery's ID as `id`
 * (EventBridge gives every put an envelope ID of its own, new on each retry)
 * and the operator it is about as `OperatorID`, as platform events name it.
 */
export const newBusDelivery = (
  operatorId: string,
  type: WebhookEventType,
  data: unknown,
  now: Date,
  bus: { source: string; detailType: string },
): DeliveryItem =>
  queuedDelivery(
    operatorId,
    type,
    { Target: 'event-bridge', Source: bus.source, DetailType: bus.detailType },
    (id) => ({ id, OperatorID: operatorId, ...webhookEvent(type, data, now) }),
    now,
  );
