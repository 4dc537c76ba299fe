/**
 * The source of "now". Code that depends on time takes a clock, so tests
 * move time instead of waiting for it.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const unixSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(at: Date): void;
}

/** A clock that stands still until told to move. */
export function manualClock(start: Date = new Date()): ManualClock {
  let now = start.getTime();
  return Object.assign(() => new Date(now), {
    advance: (ms: number) => {
      now += ms;
    },
    set: (at: Date) => {
      now = at.getTime();
    },
  });
}
