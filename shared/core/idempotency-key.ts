/**
 * What a client's idempotency key may be (the Idempotency-Key header, a batch
 * entry's Identifier): 1 to 255 visible ASCII characters, so UUIDs, ULIDs and
 * base64 values all fit. Apart from idempotency.ts, which hashes with
 * node:crypto, because the schemas that state the rule are read by the
 * dashboard's type check too.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
export const IDEMPOTENCY_KEY_RULE = 'must be 1 to 255 visible ASCII characters';
