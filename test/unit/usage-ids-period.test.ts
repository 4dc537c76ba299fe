import { newUsageId, shardOf } from '../../shared/usage/ids';
import { hourBucket, hourStart, summaryPeriod } from '../../shared/usage/period';
import { ValidationError } from '../../shared/core/errors';

describe('usage IDs', () => {
  it('are safe integers that carry their millisecond and order by it', () => {
    const now = Date.UTC(2026, 4, 1, 12, 0, 0, 123);
    const id = newUsageId(now);
    expect(Number.isSafeInteger(id)).toBe(true);
    // The high bits are the milliseconds since 2020-01-01, the low 12 bits random.
    expect(Math.floor(id / 4096) + Date.UTC(2020, 0, 1)).toBe(now);
    expect(newUsageId(now + 1)).toBeGreaterThan(id);
    expect(Number.isSafeInteger(newUsageId(Date.UTC(2089, 0, 1)))).toBe(true);
  });

  it('spread over every shard', () => {
    const shards = new Set(Array.from({ length: 400 }, () => shardOf(newUsageId(), 8)));
    expect([...shards].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('hour buckets', () => {
  it('name and start the UTC hour of an instant', () => {
    const instant = Date.parse('2026-05-01T13:59:59Z') / 1000;
    expect(hourBucket(instant)).toBe('2026-05-01T13');
    expect(hourStart(instant)).toBe(Date.parse('2026-05-01T13:00:00Z') / 1000);
    expect(hourBucket(0)).toBe('1970-01-01T00');
  });
});

describe('summary periods', () => {
  it('are whole UTC days by default', () => {
    const period = summaryPeriod('2026-05-01', '2026-05-02');
    expect(period.days.map((day) => day.date)).toEqual(['2026-05-01', '2026-05-02']);
    expect(period.days[0].start).toBe(Date.parse('2026-05-01T00:00:00Z') / 1000);
    expect(period.days[1].end).toBe(Date.parse('2026-05-03T00:00:00Z') / 1000);
    expect([period.firstHour, period.lastHour]).toEqual(['2026-05-01T00', '2026-05-02T23']);
  });

  it('cut at a zone’s midnights, DST days included', () => {
    const period = summaryPeriod('2026-10-25', '2026-10-25', 'Europe/Berlin');
    expect(period.days[0].end - period.days[0].start).toBe(25 * 3600);
    expect([period.firstHour, period.lastHour]).toEqual(['2026-10-24T22', '2026-10-25T22']);
    expect(summaryPeriod('2026-05-01', '2026-05-01', 'Asia/Tokyo').firstHour).toBe('2026-04-30T15');
  });

  it('refuse zones whose midnights fall between UTC hours, unknown zones and bad ranges', () => {
    for (const zone of ['Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide', 'Not/AZone']) {
      expect(() => summaryPeriod('2026-05-01', '2026-05-01', zone)).toThrow(ValidationError);
    }
    expect(() => summaryPeriod('2026-05-02', '2026-05-01')).toThrow(expect.objectContaining({ field: 'to', message: "must not be before 'from'" }));
    expect(() => summaryPeriod('2026-01-01', '2026-04-03')).toThrow(/at most 92/);
    expect(summaryPeriod('2026-01-01', '2026-04-02').days).toHaveLength(92);
  });
});
