import { createHash } from 'node:crypto';
import { ValidationError } from '../http/errors';

/**
 * Safe retries. A partner may send `Idempotency-Key` with a booking; the
 * record of the key is written in the same transaction as the booking and
 * lives this long (DynamoDB TTL on ExpiresAt; reads ignore an expired record
 * that TTL has not swept yet, and a new booking may take its key over).
 */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** Visible ASCII, so that UUIDs, ULIDs and base64 values all fit. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

export interface IdempotencyRecord {
  RequestHash: string;
  BookingReference: string;
  /** The `data` of the original 201 response, as JSON text. */
  Response: string;
  CreatedAt: string;
  /** Unix seconds. */
  ExpiresAt: number;
}

export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ValidationError("Header 'Idempotency-Key' must be 1 to 255 visible ASCII characters");
  }
}

/** The key's hash addresses the record, so any visible character is safe inside a table key. */
export const hashIdempotencyKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

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
