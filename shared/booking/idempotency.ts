import type { IdempotencyRecordBase } from '../core/idempotency';

/**
 * What a partner's Idempotency-Key remembers of the booking it made (the
 * scheme itself is shared/core/idempotency.ts). Kept for a day: DynamoDB TTL
 * sweeps it by ExpiresAt, and reads ignore an expired record not yet swept.
 */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface IdempotencyRecord extends IdempotencyRecordBase {
  BookingReference: string;
  /** The `data` of the original 201 response, as JSON text. */
  Response: string;
  CreatedAt: string;
}
