import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { configure } from '../../shared/core/config';
import { requestHash } from '../../shared/core/idempotency';
import { idempotencyOf, transactionGroups, type PendingEntry } from '../../shared/usage/record-usage';
import { aggregateKeysOf, recordEntriesTransaction, voidEntryTransaction } from '../../shared/usage/usage-writes';
import { registerCombinationsTransaction } from '../../shared/usage/combinations';
import { registerMetersTransaction } from '../../shared/usage/meters';
import { MAX_BATCH_ENTRIES } from '../../shared/usage/model';

const utc = (iso: string) => Date.parse(iso) / 1000;

describe('the transactions of usage metering', () => {
  beforeAll(() => configure({ tableName: 'ota-usage-unit' }));
  const now = new Date('2026-06-01T10:30:00.250Z');
  const entry = (ID: number, Usage: number, iso: string, Meter = 'api-calls') => ({ entry: { ID, Meter, Usage, OccurredAt: utc(iso) } });

  it('record entries of one shard and add them up once per aggregate, exactly', () => {
    const key = idempotencyOf('k-1', { Meter: 'api-calls', Usage: 0.1 }, 'client', 'Idempotency-Key');
    const { input, positions } = recordEntriesTransaction(
      'acme',
      3,
      [
        { ...entry(11, 0.1, '2026-06-01T09:10:00Z'), idempotency: key },
        entry(12, 0.2, '2026-06-01T09:50:00Z'),
        entry(13, 1, '2026-06-02T00:00:00Z'),
      ],
      now,
    );
    const items = input.TransactItems ?? [];
    expect(positions).toEqual([{ idempotency: 0, entry: 1 }, { entry: 2 }, { entry: 3 }]);
    expect(items[0].Put?.Item).toEqual(
      expect.objectContaining({
        SK: 'IDEMPOTENCY',
        Entry: entry(11, 0.1, '2026-06-01T09:10:00Z').entry,
        ExpiresAt: utc('2026-06-08T10:30:00Z'),
      }),
    );
    expect(items[1].Put?.Item).toEqual(
      expect.objectContaining({ PK: 'OP#acme#USAGE#ENTRIES#3', SK: 'ENTRY#0000000000000011', Usage: 0.1 }),
    );
    // Hour 09 once for both entries of that hour, the day and month once each, and the next day's three.
    const increments = items
      .slice(4)
      .map(({ Update }) => [
        Update?.Key?.PK,
        Update?.Key?.SK,
        String(Update?.ExpressionAttributeValues?.[':usage']),
        Update?.ExpressionAttributeValues?.[':events'],
      ]);
    expect(increments).toEqual([
      ['OP#acme#USAGE#AGGREGATES#3', 'HOUR#2026-06-01T09#api-calls', '0.3', 2],
      ['OP#acme#USAGE#DAYS#3', 'DAY#2026-06-01#api-calls', '0.3', 2],
      ['OP#acme#USAGE#MONTHS#3', 'MONTH#2026-06#api-calls', '1.3', 3],
      ['OP#acme#USAGE#AGGREGATES#3', 'HOUR#2026-06-02T00#api-calls', '1', 1],
      ['OP#acme#USAGE#DAYS#3', 'DAY#2026-06-02#api-calls', '1', 1],
    ]);
    expect(items[4].Update?.ExpressionAttributeValues?.[':usage']).toBeInstanceOf(NumberValue);
  });

  it('void an entry by marking it and taking it out of its three aggregates', () => {
    const {
      input: { TransactItems = [] },
    } = voidEntryTransaction(
      'acme',
      5,
      { ID: 21, Meter: 'storage', Usage: 0.25, OccurredAt: utc('2026-06-01T23:59:59Z') },
      utc('2026-06-03T00:00:00Z'),
    );
    expect(TransactItems[0].Update?.Key).toEqual({ PK: 'OP#acme#USAGE#ENTRIES#5', SK: 'ENTRY#0000000000000021' });
    expect(TransactItems[0].Update?.ExpressionAttributeValues).toEqual({ ':voidedAt': utc('2026-06-03T00:00:00Z') });
    expect(
      TransactItems.slice(1).map(({ Update }) => [
        Update?.Key?.SK,
        String(Update?.ExpressionAttributeValues?.[':usage']),
        Update?.ExpressionAttributeValues?.[':events'],
      ]),
    ).toEqual([
      ['HOUR#2026-06-01T23#storage', '-0.25', -1],
      ['DAY#2026-06-01#storage', '-0.25', -1],
      ['MONTH#2026-06#storage', '-0.25', -1],
    ]);
  });

  it("add an entry with dimensions to its combination's totals in each aggregate, and take it out of them when voided", () => {
    const dimensioned = (ID: number, Usage: number, combination: number) => ({
      entry: { ID, Meter: 'api-calls', Usage, OccurredAt: utc('2026-06-01T09:10:00Z'), Dimensions: { Region: `r${combination}` } },
      combination,
    });
    const { input } = recordEntriesTransaction(
      'acme',
      2,
      [dimensioned(31, 0.1, 7), dimensioned(32, 0.2, 7), dimensioned(33, 1.5, 12), entry(34, 4, '2026-06-01T09:20:00Z')],
      now,
    );
    const items = input.TransactItems ?? [];
    expect(items[0].Put?.Item).toEqual(expect.objectContaining({ Combination: 7, Dimensions: new Map([['Region', 'r7']]) }));
    expect(items[3].Put?.Item).not.toHaveProperty('Combination');
    const hour = items[4].Update!;
    expect(hour.UpdateExpression).toBe(
      'SET Entity = :entity, #meter = :meter ADD TotalUsage :usage, EventCount :events, #u0 :u0, #e0 :e0, #u1 :u1, #e1 :e1',
    );
    expect(hour.ExpressionAttributeNames).toEqual({ '#meter': 'Meter', '#u0': 'U7', '#e0': 'E7', '#u1': 'U12', '#e1': 'E12' });
    expect(Object.fromEntries(Object.entries(hour.ExpressionAttributeValues!).map(([name, value]) => [name, String(value)]))).toEqual({
      ':entity': 'UsageAggregate',
      ':meter': 'api-calls',
      ':usage': '5.8',
      ':events': '4',
      ':u0': '0.3',
      ':e0': '2',
      ':u1': '1.5',
      ':e1': '1',
    });
    const {
      input: { TransactItems = [] },
    } = voidEntryTransaction('acme', 2, { ...dimensioned(33, 1.5, 12).entry, Combination: 12 }, utc('2026-06-03T00:00:00Z'));
    for (const { Update } of TransactItems.slice(1)) {
      expect(Update?.ExpressionAttributeNames).toEqual({ '#meter': 'Meter', '#u0': 'U12', '#e0': 'E12' });
      expect([String(Update?.ExpressionAttributeValues?.[':u0']), Update?.ExpressionAttributeValues?.[':e0']]).toEqual(['-1.5', -1]);
    }
  });

  it('keep every aggregate update within DynamoDB’s 4 KB expression limit, whatever the numbers, for the largest batch', () => {
    // Every entry of the largest batch in one hour of one meter, each of another combination with a number of the largest length.
    const { input } = recordEntriesTransaction(
      'acme',
      0,
      Array.from({ length: MAX_BATCH_ENTRIES }, (_, i) => ({
        entry: { ID: 100 + i, Meter: 'm'.repeat(128), Usage: 123456789.123456, OccurredAt: utc('2026-06-01T09:00:00Z') },
        combination: 999_000 + i,
      })),
      now,
    );
    const updates = (input.TransactItems ?? []).filter((item) => item.Update).map((item) => item.Update!);
    expect(updates).toHaveLength(3);
    for (const update of updates) {
      expect(Object.keys(update.ExpressionAttributeNames!)).toHaveLength(1 + 2 * MAX_BATCH_ENTRIES);
      expect(Buffer.byteLength(update.UpdateExpression!)).toBeLessThan(4096);
    }
  });

  it('register new combinations of meters only if their counts have not moved and none exists yet', () => {
    const { TransactItems = [] } = registerCombinationsTransaction('acme', [
      {
        meter: 'api-calls',
        count: 4,
        combinations: [
          { dimensionsHash: 'h1', dimensions: { Region: 'eu' } },
          { dimensionsHash: 'h2', dimensions: { Region: 'us' } },
        ],
      },
      { meter: 'storage', count: 0, combinations: [{ dimensionsHash: 'h1', dimensions: { Region: 'eu' } }] },
    ]);
    expect(TransactItems[0].Update).toEqual(
      expect.objectContaining({
        Key: { PK: 'OP#acme#USAGE#COMBINATIONS', SK: 'COUNT#api-calls' },
        ConditionExpression: '#count = :count',
        ExpressionAttributeValues: expect.objectContaining({ ':count': 4, ':next': 6 }),
      }),
    );
    expect(
      TransactItems.map(({ Put, Update }) => [
        Put?.Item?.SK ?? Update?.Key?.SK,
        Put?.Item?.Combination,
        Put?.ConditionExpression ?? Update?.ConditionExpression,
      ]),
    ).toEqual([
      ['COUNT#api-calls', undefined, '#count = :count'],
      ['DIMENSIONS#api-calls#h1', 5, 'attribute_not_exists(PK)'],
      ['NUMBER#api-calls#5', 5, 'attribute_not_exists(PK)'],
      ['DIMENSIONS#api-calls#h2', 6, 'attribute_not_exists(PK)'],
      ['NUMBER#api-calls#6', 6, 'attribute_not_exists(PK)'],
      ['COUNT#storage', undefined, 'attribute_not_exists(PK)'],
      ['DIMENSIONS#storage#h1', 1, 'attribute_not_exists(PK)'],
      ['NUMBER#storage#1', 1, 'attribute_not_exists(PK)'],
    ]);
  });

  it("register new meters only if the operator's count has not moved and none of them exists yet", () => {
    const shape = (count: number) =>
      (registerMetersTransaction('acme', count, ['api-calls', 'storage'], now).TransactItems ?? []).map(({ Put, Update }) => [
        Put?.Item?.SK ?? Update?.Key?.SK,
        Put?.ConditionExpression ?? Update?.ConditionExpression,
        Update?.ExpressionAttributeValues?.[':next'],
      ]);
    // A count read as 0 is one not written yet (or written at 0).
    expect(shape(0)).toEqual([
      ['COUNT', 'attribute_not_exists(PK) OR #count = :count', 2],
      ['METER#api-calls', 'attribute_not_exists(PK)', undefined],
      ['METER#storage', 'attribute_not_exists(PK)', undefined],
    ]);
    expect(shape(48)[0]).toEqual(['COUNT', '#count = :count', 50]);
    const [count] = registerMetersTransaction('acme', 48, ['api-calls'], now).TransactItems ?? [];
    expect(count.Update).toEqual(
      expect.objectContaining({
        Key: { PK: 'OP#acme#USAGE#METERS', SK: 'COUNT' },
        ExpressionAttributeValues: expect.objectContaining({ ':count': 48 }),
      }),
    );
  });

  it('fingerprint an entry by its fields as sent, in any order, without its key', () => {
    const a = idempotencyOf('k', { Meter: 'm', Usage: 1, OccurredAt: 5 }, 'client', 'Identifier');
    expect(a.requestHash).toBe(requestHash({ OccurredAt: 5, Usage: 1, Meter: 'm' }));
    expect(idempotencyOf('other', { Meter: 'm', Usage: 1, OccurredAt: 5 }, 'client', 'Identifier').requestHash).toBe(a.requestHash);
    expect(idempotencyOf('k', { Meter: 'm', Usage: 1 }, 'client', 'Identifier').requestHash).not.toBe(a.requestHash);
    // Dimensions are part of the request; without them an entry hashes as it did before they existed.
    const withDimensions = idempotencyOf('k', { Meter: 'm', Usage: 1, OccurredAt: 5, Dimensions: { R: 'eu' } }, 'client', 'Identifier');
    expect(withDimensions.requestHash).toBe(requestHash({ Meter: 'm', Usage: 1, OccurredAt: 5, Dimensions: { R: 'eu' } }));
    expect(withDimensions.requestHash).not.toBe(a.requestHash);
  });

  it('group a batch into transactions of at most 100 items, entries sharing aggregates together', () => {
    // 100 entries with keys, 5 meters taking turns, all in one hour: as a client flushing its buffer sends them.
    const entries: PendingEntry[] = Array.from({ length: 100 }, (_, i) => {
      const input = { Meter: `meter-${i % 5}`, Usage: 1, OccurredAt: utc('2026-06-01T09:00:00Z') + i };
      return {
        input,
        meterField: `Entries[${i}].Meter`,
        dimensionsField: `Entries[${i}].Dimensions`,
        idempotency: idempotencyOf(`k-${i}`, input, 'client', `Entries[${i}].Identifier`),
        order: i,
      };
    });
    const groups = transactionGroups(entries);
    const items = groups.map(
      (group) =>
        2 * group.length + new Set(group.flatMap((entry) => aggregateKeysOf(entry.input as { Meter: string; OccurredAt: number }))).size,
    );
    expect(items.every((count) => count <= 100)).toBe(true);
    // Each meter's 20 entries together: its 3 aggregates are written once, or twice where a transaction ends inside it.
    expect(items).toEqual([99, 99, 23]);
    expect(new Set(groups.flat())).toEqual(new Set(entries));
  });
});
