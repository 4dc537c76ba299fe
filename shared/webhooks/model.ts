/** Stored shapes of webhook endpoints and of the deliveries to them; the public shapes are in schemas.ts. */

export const WEBHOOK_EVENT_TYPES = [
  'booking.confirmed',
  'booking.cancelled',
  'hold.expired',
  'availability.changed',
  'product.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The operator's own events, of its usage limits: to its usage endpoint and to EventBridge, never to a partner. */
export const USAGE_EVENT_TYPES = ['usage.threshold.crossed', 'usage.threshold.resolved'] as const;
export type UsageEventType = (typeof USAGE_EVENT_TYPES)[number];
/** What an endpoint registered without EventTypes receives: the events there were before a partner could choose. */
export const DEFAULT_EVENT_TYPES: readonly WebhookEventType[] = ['booking.confirmed', 'booking.cancelled', 'hold.expired'];

/** OCTo's notification types (docs.octo.travel, the notifications capability): what an OCTo subscription chooses from. */
export const OCTO_NOTIFICATION_TYPES = ['PRODUCT_UPDATE', 'AVAILABILITY_UPDATE', 'BOOKING_UPDATE'] as const;
export type OctoNotificationType = (typeof OCTO_NOTIFICATION_TYPES)[number];

/** An endpoint: a partner key's (KeyID), or the operator's for its usage alerts (no KeyID). The secret is kept to sign with; it is shown once, when issued. */
export interface WebhookEndpointItem {
  OperatorID: string;
  KeyID?: string;
  Url: string;
  /** `whsec_` and the base64 of 32 random bytes, as Standard Webhooks spells secrets. */
  Secret: string;
  /** The events it receives; absent on endpoints registered without them: DEFAULT_EVENT_TYPES. */
  EventTypes?: WebhookEventType[];
  CreatedAt: string;
  /** The oldest event it has failed to receive since it last received one (endpoint-health.ts); gone on a delivery. */
  FailingSince?: string;
  /** When it last received an event after failing: an older event failing later does not make it fail since before then. */
  RecoveredAt?: string;
  /** When it was marked failing, a day of failed attempts after FailingSince: nothing is sent until it is registered again. */
  MarkedFailingAt?: string;
  /** The lease of a request in flight to it, by lane (partner-lanes.ts): until when. */
  [lane: `Lane${number}`]: string | undefined;
}

/** The events a partner's endpoint receives. */
export const eventTypesOf = (endpoint: Pick<WebhookEndpointItem, 'EventTypes'>): readonly WebhookEventType[] =>
  endpoint.EventTypes ?? DEFAULT_EVENT_TYPES;

/** An OCTo reseller's subscription (a key may have several): where its notifications go, with the headers it set. */
export interface SubscriptionItem {
  SubscriptionID: string;
  OperatorID: string;
  KeyID: string;
  Url: string;
  NotificationTypes: OctoNotificationType[];
  Headers: Record<string, string>;
  CreatedAt: string;
  UpdatedAt: string;
}

/** What an endpoint receives: `data` is the record as the API shows it. */
export interface WebhookEvent {
  type: WebhookEventType | UsageEventType | OctoNotificationType;
  timestamp: string;
  data: unknown;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/**
 * Where a delivery goes besides a partner key's endpoint (which KeyID
 * names): one of the key's OCTo subscriptions, the operator's usage
 * endpoint, or the account's default
 * EventBridge bus (as an event of Source and DetailType).
 */
export type DeliveryTarget = 'octo-subscription' | 'usage-webhook' | 'event-bridge';

/**
 * One event on its way to one receiver. The item is written in the same
 * transaction as the change it reports, so an event exists exactly when its
 * change does; the table's stream then hands it to the sender (an outbox:
 * nothing is sent anywhere after the transaction). DeliveryID is the
 * `webhook-id` (on the bus, the detail's `id`): the same on every attempt,
 * for the receiver to dedupe by.
 */
export interface DeliveryItem {
  DeliveryID: string;
  OperatorID: string;
  /** A partner key's delivery: the key whose endpoint (or, with SubscriptionID, whose OCTo subscription) it goes to. */
  KeyID?: string;
  /** Where it goes when not to the key's endpoint. */
  Target?: DeliveryTarget;
  /** octo-subscription only: which of the key's subscriptions. */
  SubscriptionID?: string;
  /** event-bridge only: the event's source and detail-type. */
  Source?: string;
  DetailType?: string;
  EventType: WebhookEventType | UsageEventType | OctoNotificationType;
  /** The JSON text sent (a WebhookEvent; on the bus, its detail): signed and sent byte for byte the same on every attempt. */
  Payload: string;
  CreatedAt: string;
  Status: DeliveryStatus;
  Attempts: number;
  /** PENDING only: when the next attempt is due. */
  NextAttemptAt?: string;
  /**
   * Set when an attempt is asked for (by the transaction that writes the
   * delivery, and by the retry sweep when a retry falls due); the sender
   * removes it when it records the attempt. A write that sets it is what
   * the stream hands to the sender (shared/api/background.ts).
   */
  QueuedAt?: string;
  LastError?: string;
  DeliveredAt?: string;
  /** Unix seconds; settled deliveries are removed by TTL after a week. */
  ExpiresAt?: number;
}

/** What the sender is handed: which delivery to attempt, for the request made at QueuedAt. */
export interface DeliveryMessage {
  OperatorID: string;
  DeliveryID: string;
  QueuedAt: string;
}
