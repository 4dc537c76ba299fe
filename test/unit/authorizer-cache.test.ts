import { authorizerCache } from '../../lib/local/authorizer-cache';
import { manualClock } from '../../shared/core/clock';

describe('the local authorizer cache', () => {
  it('answers until the TTL has passed on its clock, and not after', () => {
    const clock = manualClock(new Date('2026-05-01T00:00:00Z'));
    const cache = authorizerCache<string>({ ttlMs: 60_000, clock });
    cache.set('Bearer k1', 'allow');
    clock.advance(59_999);
    expect(cache.get('Bearer k1')).toBe('allow');
    clock.advance(1);
    expect(cache.get('Bearer k1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps one entry for variants of a header that differ in whitespace only', () => {
    const cache = authorizerCache<string>({ ttlMs: 60_000, clock: manualClock() });
    for (let spaces = 1; spaces <= 2000; spaces += 1) cache.set(`Bearer${' '.repeat(spaces)}k1\t`, 'allow');
    expect(cache.size).toBe(1);
    expect(cache.get('Bearer k1')).toBe('allow');
    expect(cache.get('Bearer k2')).toBeUndefined();
  });

  it('holds at most its bound, dropping the least recently used first', () => {
    const cache = authorizerCache<number>({ ttlMs: 60_000, maxEntries: 3, clock: manualClock() });
    cache.set('Bearer a', 1);
    cache.set('Bearer b', 2);
    cache.set('Bearer c', 3);
    expect(cache.get('Bearer a')).toBe(1);
    cache.set('Bearer d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('Bearer b')).toBeUndefined();
    expect([cache.get('Bearer a'), cache.get('Bearer c'), cache.get('Bearer d')]).toEqual([1, 3, 4]);
  });

  it('caches nothing when the TTL is 0, as API Gateway with caching off', () => {
    const cache = authorizerCache<string>({ ttlMs: 0, clock: manualClock() });
    cache.set('Bearer k1', 'allow');
    expect(cache.get('Bearer k1')).toBeUndefined();
  });
});
