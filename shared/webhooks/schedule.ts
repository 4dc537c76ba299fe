/**
 * When deliveries are attempted. The first attempt follows the change at
 * once; after a failed attempt the next waits 1, 4, 16, 64 minutes, then
 * about 4 and then 8 hours, and the last attempt is made 24 hours after the
 * event. An attempt counts when the receiver answers 2xx within 10 seconds,
 * connected within 3.
 */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * Of those, the most a connection may take (the name's lookup included): a
 * receiver that is up connects in milliseconds, and a host that drops the
 * connection's packets would otherwise hold a delivery lane the whole 10 seconds.
 */
export const CONNECT_TIMEOUT_MS = 3_000;
/**
 * A queued attempt is due again this long after it was queued, in case it
 * never happens (a sender that failed on it every time); an attempt ends
 * (in ATTEMPT_TIMEOUT_MS) long before.
 */
export const QUEUED_ATTEMPT_LEASE_MS = 60_000;
const FIRST_RETRY_MS = 60_000;
const LONGEST_WAIT_MS = 8 * 60 * 60 * 1000;
/** Why the deliveries to a revoked key were given up (their LastError). */
export const KEY_REVOKED = 'the API key was revoked';
/** Settled deliveries are kept this long for inspection, then removed by TTL. */
export const SETTLED_RETENTION_SECONDS = 7 * 24 * 60 * 60;

/** The wait after `failedAttempts` failed attempts (1 after the first). */
export const retryDelayMs = (failedAttempts: number): number => Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 4 ** (failedAttempts - 1));

/** When to try again after a failed attempt, or undefined when the 24 hours are over. */
export function nextAttemptAfterFailure(createdAt: Date, failedAttempts: number, now: Date): Date | undefined {
  const deadline = createdAt.getTime() + DELIVERY_WINDOW_MS;
  if (now.getTime() >= deadline) return undefined;
  return new Date(Math.min(now.getTime() + retryDelayMs(failedAttempts), deadline));
}
