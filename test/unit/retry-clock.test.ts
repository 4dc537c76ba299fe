import { manualClock } from '../../shared/core/clock';
import { ContentionError, RETRY, retrying } from '../../shared/core/retry';

describe('retrying', () => {
  it('returns the first settled result, attempting again only when asked', async () => {
    const attempts: number[] = [];
    const result = await retrying('probe', async (index) => (attempts.push(index), index < 2 ? RETRY : `settled at ${index}`), {
      baseMs: 0,
    });
    expect(result).toBe('settled at 2');
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('gives up after its attempts with a contention error that names the operation (answered 503 busy)', async () => {
    let count = 0;
    const givenUp = retrying('the probe write', async () => (count++, RETRY), { attempts: 3, baseMs: 0 });
    await expect(givenUp).rejects.toThrow(new ContentionError('the probe write did not settle in 3 attempts'));
    await expect(givenUp).rejects.toBeInstanceOf(ContentionError);
    expect(count).toBe(3);
  });

  it('lets an error of an attempt through at once', async () => {
    let count = 0;
    await expect(
      retrying('probe', async () => {
        count += 1;
        throw new Error('not retryable');
      }),
    ).rejects.toThrow('not retryable');
    expect(count).toBe(1);
  });
});

describe('manualClock', () => {
  it('stands still until moved', () => {
    const clock = manualClock(new Date('2026-07-01T10:00:00Z'));
    expect(clock().toISOString()).toBe('2026-07-01T10:00:00.000Z');
    clock.advance(90_000);
    expect(clock().toISOString()).toBe('2026-07-01T10:01:30.000Z');
    clock.set(new Date('2027-01-01T00:00:00Z'));
    expect(clock().toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
