import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { configure } from '../../shared/core/config';
import { requestHash } from '../../shared/core/idempotency';
import { idempotencyOf, transactionGroups, type PendingEntry } from '../../shared/usage/record-usage';
import { aggregateKeysOf } from '../../shared/usage/usage-writes';
import { recordEntriesTransaction, voidEntryTransaction } from '../../shared/usage/usage-writes';

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
    const { TransactItems = [] } = voidEntryTransaction(
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

  it('fingerprint an entry by its fields as sent, in any order, without its key', () => {
    const a = idempotencyOf('k', { Meter: 'm', Usage: 1, OccurredAt: 5 }, 'client', 'Identifier');
    expect(a.requestHash).toBe(requestHash({ OccurredAt: 5, Usage: 1, Meter: 'm' }));
    expect(idempotencyOf('other', { Meter: 'm', Usage: 1, OccurredAt: 5 }, 'client', 'Identifier').requestHash).toBe(a.requestHash);
    expect(idempotencyOf('k', { Meter: 'm', Usage: 1 }, 'client', 'Identifier').requestHash).not.toBe(a.requestHash);
  });

  it('group a batch into transactions of at most 100 items, entries sharing aggregates together', () => {
    // 100 entries with keys, 5 meters taking turns, all in one hour: as a client flushing its buffer sends them.
    const entries: PendingEntry[] = Array.from({ length: 100 }, (_, i) => {
      const input = { Meter: `meter-${i % 5}`, Usage: 1, OccurredAt: utc('2026-06-01T09:00:00Z') + i };
      return {
        input,
        dimensionsField: `Entries[${i}].Dimensions`,
        idempotency: idempotencyOf(`k-${i}`, input, 'client', `Entries[${i}].Identifier`),
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
