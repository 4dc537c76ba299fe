import { createHash } from 'node:crypto';
import type { Clock } from '../../shared/core/clock';

/**
 * The authorizer's result cache, as API Gateway keeps one: an answer is reused
 * for `ttlMs` per identity (the Authorization header), and the cache holds at
 * most `maxEntries`, dropping the least recently used first. Identities are
 * kept as SHA-256 digests of the header with its whitespace collapsed, so that
 * neither a secret nor a 16 KB header is held as a key, and variants that the
 * authorizer reads alike (`Bearer  k` and `Bearer k`) share one entry.
 */
export interface AuthorizerCache<T> {
  get(authorization: string): T | undefined;
  set(authorization: string, result: T): void;
  readonly size: number;
}

/** API Gateway's cache is bounded too; locally, this many distinct keys in one TTL is far beyond any real use. */
export const AUTHORIZER_CACHE_MAX_ENTRIES = 1000;

const identity = (authorization: string) => createHash('sha256').update(authorization.trim().replace(/\s+/g, ' ')).digest('base64');

export function authorizerCache<T>(options: { ttlMs: number; maxEntries?: number; clock: Clock }): AuthorizerCache<T> {
  const maxEntries = options.maxEntries ?? AUTHORIZER_CACHE_MAX_ENTRIES;
  const entries = new Map<string, { result: T; expires: number }>();
  const now = () => options.clock().getTime();
  return {
    get(authorization) {
      const key = identity(authorization);
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expires <= now()) return undefined;
      // Map keeps insertion order: re-inserting makes this the most recently used.
      entries.set(key, entry);
      return entry.result;
    },
    set(authorization, result) {
      if (options.ttlMs <= 0) return;
      const key = identity(authorization);
      entries.delete(key);
      entries.set(key, { result, expires: now() + options.ttlMs });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
