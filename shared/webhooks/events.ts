import { createHash, randomBytes } from 'node:crypto';
import * as webhookKeys from '../db/webhook-keys';
import {
  eventTypesOf,
  type DeliveryItem,
  type OctoNotificationType,
  type UsageEventType,
  type WebhookEvent,
  type WebhookEventType,
} from './model';
import { getEndpoint } from './repository';
import { QUEUED_ATTEMPT_LEASE_MS } from './schedule';

/**
 * Events for partners and operators. The domain that changes something asks
 * for the delivery of its event (none when no one listens for it) and writes
 * it in the transaction of the change. That is all it does: the table's
 * stream hands the written delivery to the sender, so an event can neither
 * be sent for a change that failed nor be lost after one that succeeded.
 * Announcements (shared/changes) write deliveries whose ID is derived from
 * what they announce, so that writing one twice writes it once.
 */

/** `msg_` and 24 random characters: the Standard Webhooks `webhook-id`. */
const newDeliveryId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** `msg_` and 24 characters of the SHA-256 of what the delivery is: the same announcement to the same listener, the same ID. */
export const derivedDeliveryId = (...parts: string[]) =>
  `msg_${createHash('sha256').update(parts.join('\n'), 'utf8').digest('base64url').slice(0, 24)}`;

type Partner = { operatorId: string; keyId: string };
type EventType = WebhookEventType | UsageEventType | OctoNotificationType;

/** Whether the partner has an endpoint that receives `type` (read on its own when a caller can overlap it with other reads). */
export const partnerListens = async (partner: Partner, type: WebhookEventType): Promise<boolean> => {
  const endpoint = await getEndpoint(webhookKeys.endpoint(partner.operatorId, partner.keyId));
  return endpoint !== undefined && eventTypesOf(endpoint).includes(type);
};

/** Whether the operator has a usage webhook endpoint. */
export const usageWebhookListens = async (operatorId: string): Promise<boolean> =>
  (await getEndpoint(webhookKeys.usageEndpoint(operatorId))) !== undefined;

/** A delivery of `payload`, attempted as soon as the stream hands it over. */
function queuedDelivery(
  operatorId: string,
  type: EventType,
  receiver: Pick<DeliveryItem, 'KeyID' | 'Target' | 'SubscriptionID' | 'Source' | 'DetailType'>,
  payload: (deliveryId: string) => unknown,
  now: Date,
  id: string = newDeliveryId(),
): DeliveryItem {
  return {
    DeliveryID: id,
    OperatorID: operatorId,
    ...receiver,
    EventType: type,
    Payload: JSON.stringify(payload(id)),
    CreatedAt: now.toISOString(),
    Status: 'PENDING',
    Attempts: 0,
    // Attempted as soon as the stream hands it over; due for the retry sweep only if that first attempt never happens.
    QueuedAt: now.toISOString(),
    NextAttemptAt: new Date(now.getTime() + QUEUED_ATTEMPT_LEASE_MS).toISOString(),
  };
}

const webhookEvent = (type: EventType, data: unknown, now: Date): WebhookEvent => ({ type, timestamp: now.toISOString(), data });

interface DeliveryOptions {
  /** The delivery's ID; a new random one unless given (derivedDeliveryId). */
  id?: string;
  /** An OCTo subscription of the partner's key, instead of its endpoint. */
  subscriptionId?: string;
}

/** The delivery of an event to a partner known to listen. */
export const newDelivery = (
  partner: Partner,
  type: WebhookEventType | OctoNotificationType,
  data: unknown,
  now: Date,
  options: DeliveryOptions = {},
): DeliveryItem =>
  queuedDelivery(
    partner.operatorId,
    type,
    { KeyID: partner.keyId, ...(options.subscriptionId ? { Target: 'octo-subscription', SubscriptionID: options.subscriptionId } : {}) },
    () => webhookEvent(type, data, now),
    now,
    options.id,
  );

/** The delivery of an event to the operator's usage endpoint, known to exist. */
export const newUsageWebhookDelivery = (operatorId: string, type: UsageEventType, data: unknown, now: Date): DeliveryItem =>
  queuedDelivery(operatorId, type, { Target: 'usage-webhook' }, () => webhookEvent(type, data, now), now);

/**
 * The delivery of an event to the account's default EventBridge bus: its
 * detail is the event a webhook would carry, with the delivery's ID as `id`
 * (EventBridge gives every put an envelope ID of its own, new on each retry)
 * and the operator it is about as `OperatorID`, as platform events name it.
 */
export const newBusDelivery = (
  operatorId: string,
  type: UsageEventType,
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
