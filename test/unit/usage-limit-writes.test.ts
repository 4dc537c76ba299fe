import { configure } from '../../shared/core/config';
import { limitWrites } from '../../shared/usage/gates';
import type { KnownGuard } from '../../shared/usage/guards';
import { prunedCounters } from '../../shared/usage/limit-counters';
import type { LimitRule } from '../../shared/usage/limit-model';
import { recordEntriesTransaction, voidEntryTransaction } from '../../shared/usage/usage-writes';

/**
 * What limits add to a recording transaction: one item per meter (its
 * guard, updated with its NONE limits' counters, or only checked), one gate
 * per REFUSE limit and period; and which counters a make removes.
 */
const utc = (iso: string) => Date.parse(iso) / 1000;
const rule = (LimitID: string, overrides: Partial<LimitRule> = {}): LimitRule => ({
  LimitID,
  GateKey: `gk-${LimitID}`,
  Period: 'MONTH',
  TimeZone: 'UTC',
  Amount: '100',
  Enforcement: 'NONE',
  AppliesFrom: utc('2026-06-01T00:00:00Z'),
  ...overrides,
});
const guards = (entries: [string, KnownGuard][]) => new Map(entries);

describe('the items limits add to a transaction', () => {
  beforeAll(() => configure({ tableName: 'ota-usage-unit' }));
  const now = new Date('2026-06-15T10:00:00Z');
  const entry = (ID: number, Usage: number, iso: string, Meter = 'api-calls') => ({ entry: { ID, Meter, Usage, OccurredAt: utc(iso) } });
  const counted = ({ entry: one }: ReturnType<typeof entry>, dimensions?: Record<string, string>) => ({
    meter: one.Meter,
    occurredAt: one.OccurredAt,
    usage: one.Usage,
    dimensions,
  });
  const limits = guards([
    [
      'api-calls',
      {
        version: 4,
        limits: [
          rule('month'),
          rule('day', { Period: 'DAY' }),
          rule('pro', { Filter: { Plan: 'pro' } }),
          rule('hard', { Enforcement: 'REFUSE', Amount: '10' }),
        ],
      },
    ],
    ['storage-gb', { version: 0, limits: [] }],
  ]);

  it("update each meter's guard once, adding to its NONE limits' counters, and add one gate per REFUSE limit and period", () => {
    const entries = [
      entry(1, 0.25, '2026-06-15T09:00:00Z'),
      entry(2, 1.5, '2026-06-14T23:00:00Z'),
      entry(3, 2, '2026-06-15T01:00:00Z', 'storage-gb'),
    ];
    const writes = limitWrites('acme', [counted(entries[0], { Plan: 'pro' }), counted(entries[1]), counted(entries[2])], limits);
    const { input, limitPositions } = recordEntriesTransaction('acme', 5, entries, now, writes);
    const items = input.TransactItems ?? [];
    expect(limitPositions.guards.map((position) => items[position])).toEqual([
      {
        Update: {
          TableName: 'ota-usage-unit',
          Key: { PK: 'OP#acme#USAGE#GUARDS#5', SK: 'METER#api-calls' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1, #c2 :c2, #c3 :c3, Writes :one SET Counted = :counted',
          ConditionExpression:
            'Version = :version AND attribute_exists(#c0) AND attribute_exists(#c1) AND attribute_exists(#c2) AND attribute_exists(#c3)',
          ExpressionAttributeNames: {
            '#c0': 'U#gk-month#2026-06',
            '#c1': 'U#gk-day#2026-06-15',
            '#c2': 'U#gk-pro#2026-06',
            '#c3': 'U#gk-day#2026-06-14',
          },
          ExpressionAttributeValues: expect.objectContaining({
            ':version': 4,
            ':one': 1,
            ':counted': 'gk-month#2026-06 gk-day#2026-06-15 gk-pro#2026-06 gk-day#2026-06-14',
          }),
        },
      },
      // A meter without limits: its guard's absence is checked, nothing written.
      {
        ConditionCheck: {
          TableName: 'ota-usage-unit',
          Key: { PK: 'OP#acme#USAGE#GUARDS#5', SK: 'METER#storage-gb' },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    const values = items[limitPositions.guards[0]].Update!.ExpressionAttributeValues!;
    expect([':c0', ':c1', ':c2', ':c3'].map((name) => String(values[name]))).toEqual(['1.75', '0.25', '0.25', '1.5']);
    expect(limitPositions.gates.map((position) => items[position].Update)).toEqual([
      expect.objectContaining({
        Key: { PK: 'OP#acme#USAGE#GATE#gk-hard', SK: 'PERIOD#2026-06' },
        UpdateExpression: 'ADD Used :used, Version :one',
        ConditionExpression: 'Used <= :ceiling',
      }),
    ]);
    expect(String(items[limitPositions.gates[0]].Update!.ExpressionAttributeValues![':ceiling'])).toBe('8.25');
    // The 3 entries, their 8 aggregates (api-calls: 2 hours, 2 days, 1 month; storage-gb: 3), the two guards and one gate.
    expect(items).toHaveLength(3 + 8 + 2 + 1);
  });

  it("only check the guard's Version when no counter moves: entries outside every filter, or of periods before the limits applied", () => {
    const only = guards([['api-calls', { version: 2, limits: [rule('pro', { Filter: { Plan: 'pro' } })] }]]);
    const entries = [entry(1, 1, '2026-06-15T09:00:00Z'), entry(2, 1, '2026-05-31T23:59:59Z')];
    const writes = limitWrites('acme', [counted(entries[0], { Plan: 'free' }), counted(entries[1], { Plan: 'pro' })], only);
    expect(writes).toEqual({ guards: [{ meter: 'api-calls', version: 2, counters: [] }], gates: [] });
    const { input, limitPositions } = recordEntriesTransaction('acme', 0, entries, now, writes);
    expect(input.TransactItems![limitPositions.guards[0]]).toEqual({
      ConditionCheck: {
        TableName: 'ota-usage-unit',
        Key: { PK: 'OP#acme#USAGE#GUARDS#0', SK: 'METER#api-calls' },
        ConditionExpression: 'Version = :version',
        ExpressionAttributeValues: { ':version': 2 },
      },
    });
  });

  it("take a voided entry back out of its counters and gates, a REFUSE gate's only condition that it exists", () => {
    const voided = entry(9, 3, '2026-06-15T09:00:00Z');
    const writes = limitWrites('acme', [counted(voided)], limits, -1);
    const { input, limitPositions } = voidEntryTransaction('acme', 1, voided.entry, utc('2026-06-15T10:00:00Z'), writes);
    const guard = input.TransactItems![limitPositions.guards[0]].Update!;
    expect(Object.values(guard.ExpressionAttributeNames!)).toEqual(['U#gk-month#2026-06', 'U#gk-day#2026-06-15']);
    expect(String(guard.ExpressionAttributeValues![':c0'])).toBe('-3');
    const gate = input.TransactItems![limitPositions.gates[0]].Update!;
    expect([gate.ConditionExpression, String(gate.ExpressionAttributeValues![':used'])]).toEqual(['attribute_exists(PK)', '-3']);
  });
});

describe('the counters a make removes', () => {
  const names = (gateKey: string, ...periods: string[]) => periods.map((period) => `U#${gateKey}#${period}`);
  const days = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `2026-06-${String(from + i).padStart(2, '0')}`);

  it("keep each limit's 3 newest periods when a newer one begins, and none of a limit the meter no longer has", () => {
    const existing = [
      ...names('a', '2026-06-01', '2026-06-02', '2026-06-03', '2026-05-20'),
      ...names('b', '2026-05'),
      ...names('gone', '2026-06'),
    ];
    expect(prunedCounters(existing, new Set(['a', 'b']), names('a', '2026-06-04'))).toEqual([
      ...names('a', '2026-06-01', '2026-05-20'),
      ...names('gone', '2026-06'),
    ]);
    expect(prunedCounters(names('b', '2026-04', '2026-05'), new Set(['b']), names('b', '2026-06'))).toEqual([]);
  });

  it('keep late periods made again beside the newest, the 8 newest and those made now, the oldest removed first', () => {
    // Late entries of two old days, taken in turns: neither removes the other's counter.
    const now = names('a', ...days(20, 22));
    expect(prunedCounters([...now, ...names('a', '2026-06-05')], new Set(['a']), names('a', '2026-06-09'))).toEqual([]);
    expect(prunedCounters([...now, ...names('a', '2026-06-09')], new Set(['a']), names('a', '2026-06-05'))).toEqual([]);
    // Past the 8 newest, the oldest go, never one made now.
    expect(prunedCounters(names('a', ...days(9, 17)), new Set(['a']), names('a', '2026-06-01'))).toEqual(names('a', '2026-06-09'));
  });
});
