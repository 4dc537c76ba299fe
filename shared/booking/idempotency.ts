import { createHash } from 'node:crypto';

/**
 * Safe retries. A partner may send `Idempotency-Key` with a booking; the
 * record of the key is written in the same transaction as the booking and
 * lives this long (DynamoDB TTL on ExpiresAt; reads ignore an expired record
 * that TTL has not swept yet, and a new booking may take its key over).
 */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface IdempotencyRecord {
  RequestHash: string;
  BookingReference: string;
  /** The `data` of the original 201 response, as JSON text. */
  Response: string;
  CreatedAt: string;
  /** Unix seconds. */
  ExpiresAt: number;
}

/** JSON with object keys sorted at every level: the same request in any field order has one form. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const requestHash = (body: unknown): string => createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');

export const isLive = (record: Pick<IdempotencyRecord, 'ExpiresAt'>, now: Date): boolean => record.ExpiresAt > Math.floor(now.getTime() / 1000);
