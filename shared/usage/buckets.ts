import { LEVELS, USAGE_LEVELS, type UsageLevel } from '../db/usage-levels';
import type { Interval } from './period';

/**
 * The aggregate buckets of each level (shared/db/usage-levels.ts: UTC hours
 * `YYYY-MM-DDTHH`, days `YYYY-MM-DD` and months `YYYY-MM`). Every entry is
 * added to one bucket of each level, so a span of time can be summed from
 * few large buckets and, at its ragged edges, a few small ones.
 */
/** The bucket of a level that an instant (Unix seconds) falls in; names sort as they order. */
export const bucketOf = (level: UsageLevel, unixSeconds: number): string =>
  new Date(unixSeconds * 1000).toISOString().slice(0, USAGE_LEVELS[level].nameLength);

/** Unix seconds of a bucket's start. */
export const bucketStart = (level: UsageLevel, bucket: string): number => Date.parse(`${bucket}${USAGE_LEVELS[level].startSuffix}`) / 1000;

/** The start of the bucket after the one starting at `start`. */
export const nextStart = (level: UsageLevel, start: number): number => USAGE_LEVELS[level].next(start);

const floorTo = (level: UsageLevel, t: number): number => bucketStart(level, bucketOf(level, t));

const ceilTo = (level: UsageLevel, t: number): number => {
  const floor = floorTo(level, t);
  return floor === t ? t : nextStart(level, floor);
};

/** One aggregate bucket to add (sign 1) or take away (sign -1). */
export interface Cell {
  level: UsageLevel;
  bucket: string;
  sign: 1 | -1;
}

/** The buckets of one level from `start` (a bucket start) up to `end`, all with one sign. */
function run(level: UsageLevel, start: number, end: number, sign: 1 | -1): Cell[] {
  const cells: Cell[] = [];
  for (let t = start; t < end; t = nextStart(level, t)) cells.push({ level, bucket: bucketOf(level, t), sign });
  return cells;
}

/** [from, to) when from < to, or minus [to, from) when to < from: what moving an interval's edge from `from` to `to` adds. */
const edge = (level: UsageLevel, from: number, to: number): Cell[] => (from < to ? run(level, from, to, 1) : run(level, to, from, -1));

/**
 * The fewest buckets whose signed sum is [start, end): the interval's own
 * units, or its edges moved to the nearest boundaries of the next coarser
 * level (adding or taking away the units between) with the inside covered at
 * that level the same way. A UTC month is one month bucket; 2026-01-20 to
 * 2026-03-10 is the February bucket plus 12 January days and 9 March days;
 * a day of a zone one hour ahead of UTC is a UTC day bucket plus the hour
 * before its midnight minus the last hour of its UTC day.
 */
export function cover({ start, end }: Interval): Cell[] {
  return coverAt(1, start, end);
}

/** The cover of [start, end) by buckets of the level at `index` and those finer than it. */
function coverAt(index: number, start: number, end: number): Cell[] {
  const [fine, coarse] = [LEVELS[index - 1], LEVELS[index]];
  let best = run(fine, start, end, 1);
  for (const coarseStart of new Set([floorTo(coarse, start), ceilTo(coarse, start)])) {
    for (const coarseEnd of new Set([floorTo(coarse, end), ceilTo(coarse, end)])) {
      if (coarseStart >= coarseEnd) continue;
      const inside = index + 1 < LEVELS.length ? coverAt(index + 1, coarseStart, coarseEnd) : run(coarse, coarseStart, coarseEnd, 1);
      const cells = [...edge(fine, start, coarseStart), ...inside, ...edge(fine, coarseEnd, end)];
      if (cells.length < best.length) best = cells;
    }
  }
  return best;
}
