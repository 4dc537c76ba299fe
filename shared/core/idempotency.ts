import { createHash } from 'node:crypto';
import { unixSeconds } from './clock';
import { IdempotencyKeyReusedError, ValidationError } from './errors';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from './idempotency-key';

/**
 * Safe retries, one scheme for every write. A client's idempotency key (the
 * Idempotency-Key header, or a batch entry's Identifier) is stored as its
 * SHA-256 beside the SHA-256 of the request it came with, in the same
 * transaction as the write it guards. A record is live until its ExpiresAt
 * (Unix seconds): at that second and after, it is gone for readers and
 * writers alike, whether or not DynamoDB's TTL has swept it yet.
 */

const idempotencyKeyPattern = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export interface IdempotencyRecordBase {
  RequestHash: string;
  /** Unix seconds. */
  ExpiresAt: number;
}

export function checkIdempotencyKey(key: string, field = 'Idempotency-Key'): void {
  if (!idempotencyKeyPattern.test(key)) throw new ValidationError(IDEMPOTENCY_KEY_RULE, { field });
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const hashIdempotencyKey = (key: string): string => sha256(key);

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

/** What a repeated request must match to be a replay: the request's fields as sent, in any order. */
export const requestHash = (request: unknown): string => sha256(canonicalJson(request));

export const expiresAt = (now: Date, ttlSeconds: number): number => unixSeconds(now) + ttlSeconds;

/** The one expiry rule: live strictly before ExpiresAt. */
export const isLive = (record: Pick<IdempotencyRecordBase, 'ExpiresAt'>, now: Date): boolean => record.ExpiresAt > unixSeconds(now);

/** The same key sent again with a different request: refused, as the IETF Idempotency-Key draft advises. */
export const idempotencyKeyReused = (what: string, field = 'Idempotency-Key') =>
  new IdempotencyKeyReusedError(`was already used for ${what} with a different request; send a new key for a new request`, { field });

/**
 * The one replay rule, for every write a key guards. A live record of the
 * same request is a replay: it is returned, to answer again. A live record
 * of another request means the key was reused: `reused` names what the key
 * belongs to, and the request is refused. No record, or an expired one,
 * leaves nothing to replay.
 */
export function replayable<R extends IdempotencyRecordBase>(
  record: R | undefined,
  request: { requestHash: string; field?: string },
  now: Date,
  reused: (record: R) => string,
): R | undefined {
  if (!record || !isLive(record, now)) return undefined;
  if (record.RequestHash !== request.requestHash) throw idempotencyKeyReused(reused(record), request.field);
  return record;
}
