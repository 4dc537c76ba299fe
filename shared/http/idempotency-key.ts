import { createHash } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * The `Idempotency-Key` request header, as every write endpoint takes it:
 * 1 to 255 visible ASCII characters, so that UUIDs, ULIDs and base64 values
 * all fit. A record is addressed by the key's hash, so any character is safe
 * inside a table key.
 */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ValidationError("Header 'Idempotency-Key' must be 1 to 255 visible ASCII characters");
  }
}

export const hashIdempotencyKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The same key sent again with a different request: refused (422), as the IETF Idempotency-Key draft advises. */
export const idempotencyKeyReused = (what: string) =>
  new ValidationError(`Header 'Idempotency-Key' was already used for ${what} with a different request; send a new key for a new request`);
