/**
 * The one retry loop for writes that can lose a race (a transaction conflict,
 * a key collision, throttling): each attempt either settles or asks for
 * another, and attempts are spaced by exponential backoff with full jitter,
 * so contending writers spread out instead of colliding again in step.
 */
export const RETRY = Symbol('retry');

/**
 * Writes that kept losing their race through every attempt: the items are
 * busy (other writers, or DynamoDB throttling), not wrong, and the same
 * request sent again shortly may well settle.
 */
export class ContentionError extends Error {
  override readonly name = 'ContentionError';
}

export interface RetryOptions {
  attempts?: number;
  baseMs?: number;
  capMs?: number;
}

const DEFAULTS = { attempts: 8, baseMs: 10, capMs: 500 } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function retrying<T>(
  what: string,
  attempt: (index: number) => Promise<T | typeof RETRY>,
  options: RetryOptions = {},
): Promise<T> {
  const { attempts, baseMs, capMs } = { ...DEFAULTS, ...options };
  for (let index = 0; index < attempts; index += 1) {
    const result = await attempt(index);
    if (result !== RETRY) return result;
    if (index + 1 < attempts) await sleep(Math.random() * Math.min(capMs, baseMs * 2 ** index));
  }
  throw new ContentionError(`${what} did not settle in ${attempts} attempts`);
}
