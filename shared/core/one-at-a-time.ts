/**
 * Work that must not race itself within one process: each call for a key
 * waits until the work already running for that key has ended (failed or
 * not), then runs. When one process serves many requests (the local host, a
 * busy Lambda container), requests registering an operator's new meters or
 * combinations take turns instead of racing each other for the same
 * conditional count items; processes still race, and the conditions settle that.
 */
export function oneAtATime(): (key: string, work: () => Promise<void>) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  return async (key, work) => {
    for (let earlier = running.get(key); earlier; earlier = running.get(key)) await earlier.catch(() => undefined);
    const mine = work();
    running.set(key, mine);
    try {
      await mine;
    } finally {
      running.delete(key);
    }
  };
}
