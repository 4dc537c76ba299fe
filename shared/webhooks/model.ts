/** Stored shapes of partners' webhook endpoints and of the deliveries to them; the public shapes are in schemas.ts. */

export const WEBHOOK_EVENT_TYPES = ['booking.confirmed', 'booking.cancelled', 'hold.expired'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A partner key's one endpoint. The secret is kept to sign with; it is shown once, when issued. */
export interface WebhookEndpointItem {
  OperatorID: string;
  KeyID: string;
  Url: string;
  /** `whsec_` and the base64 of 32 random bytes, as Standard Webhooks spells secrets. */
  Secret: string;
  CreatedAt: string;
  /** The oldest event it has failed to receive since it last received one (endpoint-health.ts); gone on a delivery. */
  FailingSince?: string;
  /** When it last received an event after failing: an older event failing later does not make it fail since before then. */
  RecoveredAt?: string;
  /** When it was marked failing, a day of failed attempts after FailingSince: nothing is sent until it is registered again. */
  MarkedFailingAt?: string;
}

/** What the partner receives: `data` is the record as the partner API shows it. */
export interface WebhookEvent {
  type: WebhookEventType;
  timestamp: string;
  data: unknown;
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/**
 * One event on its way to one partner. The item is written in the same
 * transaction as the change it reports, so an event exists exactly when its
 * change does; the table's stream then hands it to the sender (an outbox:
 * nothing is sent anywhere after the transaction). DeliveryID is the
 * `webhook-id`: the same on every attempt, for the partner to dedupe by.
 */
export interface DeliveryItem {
  DeliveryID: string;
  OperatorID: string;
  KeyID: string;
  EventType: WebhookEventType;
  /** The JSON text of the WebhookEvent: signed and sent byte for byte the same on every attempt. */
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
