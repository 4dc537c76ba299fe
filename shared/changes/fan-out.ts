import { derivedDeliveryId, newDelivery } from '../webhooks/events';
import {
  eventTypesOf,
  type OctoNotificationType,
  type SubscriptionItem,
  type WebhookEndpointItem,
  type WebhookEventType,
} from '../webhooks/model';
import { putDeliveryOnce, queryListeners } from '../webhooks/repository';

/**
 * Tells an announcement to everyone of the operator who listens for it: each
 * partner endpoint whose EventTypes name its webhook event, and each OCTo
 * subscription whose notificationTypes name its OCTo type. Each delivery's
 * ID is derived from the announcement and the listener, and written only if
 * it is not there yet: an announcement told twice (a stream record handed
 * over again, a flush retried) is delivered once, with the payload of its
 * first writing.
 */
export interface Announcement {
  operatorId: string;
  /** What is announced, the same text every time it is told (the delivery IDs are derived from it). */
  id: string;
  webhook?: { type: WebhookEventType; data: unknown };
  octo?: { type: OctoNotificationType; data: unknown };
  /** Only this key's listeners hear of it (a booking's own partner); without it, every listener of the operator. */
  keyId?: string;
}

/** A partner's endpoint (the operator's usage endpoint is never a listener) or an OCTo subscription. */
type Listener = (WebhookEndpointItem & { Entity: 'WebhookEndpoint'; KeyID: string }) | (SubscriptionItem & { Entity: 'OctoSubscription' });

function deliveriesTo(listener: Listener, announcement: Announcement, now: Date) {
  const { webhook, octo } = announcement;
  const partner = { operatorId: listener.OperatorID, keyId: listener.KeyID };
  if (listener.Entity === 'WebhookEndpoint') {
    if (!webhook || !eventTypesOf(listener).includes(webhook.type)) return [];
    const id = derivedDeliveryId(announcement.id, 'endpoint', listener.KeyID);
    return [newDelivery(partner, webhook.type, webhook.data, now, { id })];
  }
  if (!octo || !listener.NotificationTypes.includes(octo.type)) return [];
  const id = derivedDeliveryId(announcement.id, 'subscription', listener.KeyID, listener.SubscriptionID);
  return [newDelivery(partner, octo.type, octo.data, now, { id, subscriptionId: listener.SubscriptionID })];
}

/** Writes the announcement's deliveries; resolves with how many were new. */
export async function tell(announcement: Announcement, now: Date): Promise<number> {
  const listeners = (await queryListeners(announcement.operatorId)) as Listener[];
  const deliveries = listeners
    .filter((listener) => announcement.keyId === undefined || listener.KeyID === announcement.keyId)
    .flatMap((listener) => deliveriesTo(listener, announcement, now));
  const written = await Promise.all(deliveries.map(putDeliveryOnce));
  return written.filter(Boolean).length;
}
