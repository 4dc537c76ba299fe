import { ValidationError } from '../../shared/core/errors';
import { bucketOf, bucketStart, cover, nextStart, type Cell } from '../../shared/usage/buckets';
import { newUsageIds, shardOf } from '../../shared/usage/ids';
import { summaryPeriod } from '../../shared/usage/period';

const utc = (iso: string) => Date.parse(iso) / 1000;

describe('usage IDs', () => {
  it('are distinct safe integers of one shard that carry their millisecond', () => {
    const now = Date.UTC(2026, 4, 1, 12, 0, 0, 123);
    const ids = newUsageIds(now, 5, 8, 100);
    expect(new Set(ids).size).toBe(100);
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(shardOf(id, 8)).toBe(5);
      // The high bits are the milliseconds since 2020-01-01, the low 12 bits random.
      expect(Math.floor(id / 4096) + Date.UTC(2020, 0, 1)).toBe(now);
    }
    expect(Math.min(...newUsageIds(now + 1, 0, 8, 10))).toBeGreaterThan(Math.max(...ids));
    expect(Number.isSafeInteger(newUsageIds(Date.UTC(2089, 0, 1), 7, 8, 1)[0])).toBe(true);
  });
});

describe('aggregate buckets', () => {
  it('name and start the UTC hour, day and month of an instant', () => {
    const instant = utc('2026-05-31T13:59:59Z');
    expect([bucketOf('hour', instant), bucketOf('day', instant), bucketOf('month', instant)]).toEqual([
      '2026-05-31T13',
      '2026-05-31',
      '2026-05',
    ]);
    expect(bucketStart('hour', '2026-05-31T13')).toBe(utc('2026-05-31T13:00:00Z'));
    expect(bucketStart('month', '2026-05')).toBe(utc('2026-05-01T00:00:00Z'));
    expect(nextStart('month', utc('2026-12-01T00:00:00Z'))).toBe(utc('2027-01-01T00:00:00Z'));
    expect(bucketOf('hour', 0)).toBe('1970-01-01T00');
  });
});

/** The signed count of every hour the cells stand for; a correct cover leaves each hour of the interval at 1 and every other at 0. */
function hoursOf(cells: Cell[]): Map<number, number> {
  const hours = new Map<number, number>();
  for (const { level, bucket, sign } of cells) {
    const start = bucketStart(level, bucket);
    for (let t = start; t < nextStart(level, start); t += 3600) hours.set(t, (hours.get(t) ?? 0) + sign);
  }
  for (const [hour, count] of hours) if (count === 0) hours.delete(hour);
  return hours;
}

describe('covers', () => {
  it('take whole months and days, with the fewest cells at the edges', () => {
    const show = (cells: Cell[]) => cells.map(({ bucket, sign }) => `${sign > 0 ? '+' : '-'}${bucket}`).join(' ');
    expect(show(cover({ start: utc('2026-02-01T00:00:00Z'), end: utc('2026-03-01T00:00:00Z') }))).toBe('+2026-02');
    expect(show(cover({ start: utc('2026-03-10T00:00:00Z'), end: utc('2026-03-11T00:00:00Z') }))).toBe('+2026-03-10');
    // 22 October to 21 November: the last 10 days of October, November, less its last 9 days.
    const month = cover({ start: utc('2026-10-22T00:00:00Z'), end: utc('2026-11-22T00:00:00Z') });
    expect(month).toHaveLength(20);
    expect(month.filter((cell) => cell.sign < 0).map((cell) => cell.bucket)).toEqual(
      Array.from({ length: 9 }, (_, i) => `2026-11-${22 + i}`),
    );
    // A day of a zone one hour ahead of UTC in summer: the hour before UTC midnight, and the UTC day less its last hour.
    expect(show(cover({ start: utc('2026-07-09T23:00:00Z'), end: utc('2026-07-10T23:00:00Z') }))).toBe(
      '+2026-07-09T23 +2026-07-10 -2026-07-10T23',
    );
    // A few hours inside one day stay hours.
    expect(show(cover({ start: utc('2026-07-10T10:00:00Z'), end: utc('2026-07-10T13:00:00Z') }))).toBe(
      '+2026-07-10T10 +2026-07-10T11 +2026-07-10T12',
    );
    // A year: twelve months and nine days at each edge.
    expect(cover({ start: utc('2025-11-22T00:00:00Z'), end: utc('2026-11-22T00:00:00Z') })).toHaveLength(30);
  });

  it('always stand for exactly the hours of the interval', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 300; i += 1) {
      const start = utc('2024-01-01T00:00:00Z') + Math.floor(random() * 24 * 800) * 3600;
      const end = start + (1 + Math.floor(random() * 24 * (i % 2 ? 400 : 3))) * 3600;
      const hours = hoursOf(cover({ start, end }));
      expect(hours.size).toBe((end - start) / 3600);
      expect([...hours.values()].every((count) => count === 1)).toBe(true);
      expect(Math.min(...hours.keys())).toBe(start);
      expect(Math.max(...hours.keys())).toBe(end - 3600);
    }
  });
});

describe('summary periods', () => {
  it('are whole UTC days by default, without points unless a granularity is asked for', () => {
    const period = summaryPeriod('2026-05-01', '2026-05-02');
    expect([period.start, period.end]).toEqual([utc('2026-05-01T00:00:00Z'), utc('2026-05-03T00:00:00Z')]);
    expect(period.points).toEqual([]);
    expect(summaryPeriod('2026-05-01', '2026-05-02', 'UTC', 'day').points.map((point) => point.label)).toEqual([
      { Date: '2026-05-01' },
      { Date: '2026-05-02' },
    ]);
  });

  it('cut at a zone’s midnights, DST days included, into hours, days or months', () => {
    const berlin = summaryPeriod('2026-10-25', '2026-10-25', 'Europe/Berlin', 'hour');
    expect(berlin.end - berlin.start).toBe(25 * 3600);
    expect(berlin.points).toHaveLength(25);
    expect(berlin.points.map((point) => (point.granularity === 'hour' ? point.label.Start : '')).slice(1, 5)).toEqual([
      '2026-10-25T01:00:00+02:00',
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T03:00:00+01:00',
    ]);
    const months = summaryPeriod('2026-01-15', '2026-03-10', 'Asia/Tokyo', 'month').points;
    expect(months.map((point) => point.label)).toEqual([{ Month: '2026-01' }, { Month: '2026-02' }, { Month: '2026-03' }]);
    expect(months[0].start).toBe(utc('2026-01-14T15:00:00Z'));
    expect(months[1].start).toBe(utc('2026-01-31T15:00:00Z'));
    expect(months[2].end).toBe(utc('2026-03-10T15:00:00Z'));
  });

  it('take every zone Node knows, by its canonical name or an alias, and name it as sent', () => {
    // Aliases of the IANA database that Node's ICU resolves to other names (Asia/Calcutta, Europe/Kiev, Asia/Saigon ...).
    const aliases = ['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'America/Argentina/Buenos_Aires', 'US/Eastern', 'Etc/UTC', 'GMT'];
    for (const zone of [...Intl.supportedValuesOf('timeZone'), ...aliases]) {
      let named: string;
      try {
        named = summaryPeriod('2026-05-01', '2026-05-01', zone).timeZone;
      } catch (error) {
        named =
          /^is (\S+), where the day 2026-05-01 does not start on a whole UTC hour/.exec((error as Error).message)?.[1] ?? String(error);
      }
      expect(named).toBe(zone);
    }
    // A listed name in another case is spelt as listed.
    expect(summaryPeriod('2026-05-01', '2026-05-01', 'asia/tokyo').timeZone).toBe('Asia/Tokyo');
  });

  it('refuse zones whose midnights fall between UTC hours, unknown zones, bad ranges and long hourly series', () => {
    for (const zone of ['Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide', 'Not/AZone']) {
      expect(() => summaryPeriod('2026-05-01', '2026-05-01', zone)).toThrow(ValidationError);
    }
    expect(() => summaryPeriod('2026-05-02', '2026-05-01')).toThrow(/must not be before 'from'/);
    expect(() => summaryPeriod('2026-01-01', '2027-01-02')).toThrow(/at most 366/);
    expect(summaryPeriod('2024-01-01', '2024-12-31', 'UTC', 'day').points).toHaveLength(366);
    expect(() => summaryPeriod('2026-01-01', '2026-01-08', 'UTC', 'hour')).toThrow(/at most 7 days/);
    expect(summaryPeriod('2026-01-01', '2026-01-07', 'UTC', 'hour').points).toHaveLength(168);
  });
});
