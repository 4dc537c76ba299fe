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
 * change does; the sender then works it off. DeliveryID is the
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
  LastError?: string;
  DeliveredAt?: string;
  /** Unix seconds; settled deliveries are removed by TTL after a week. */
  ExpiresAt?: number;
}

/** The message on the delivery queue: which delivery to attempt. */
export interface DeliveryMessage {
  OperatorID: string;
  DeliveryID: string;
}
