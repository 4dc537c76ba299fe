import { configure } from '../../shared/core/config';
import { prepareUsageRecord, usageRecordTransaction } from '../../shared/usage/usage-writes';
import { AGGREGATE_SHARDS, IDEMPOTENCY_TTL_SECONDS } from '../../shared/usage/model';

describe('the TransactWriteItems input of one usage record', () => {
  beforeAll(() => configure({ tableName: 'ota-usage-unit' }));
  const now = new Date('2026-06-01T10:30:00.250Z');
  const input = { Meter: 'api-calls', Usage: 0.25, OccurredAt: Date.parse('2026-06-01T09:59:59Z') / 1000 };

  it('puts the entry and adds it to the hourly aggregate of the same shard', () => {
    const record = prepareUsageRecord('acme', input, { now });
    const { TransactItems = [] } = usageRecordTransaction(record);
    expect(TransactItems).toHaveLength(2);
    const [{ Put: entry }, { Update: aggregate }] = TransactItems;
    expect(record.shard).toBeGreaterThanOrEqual(0);
    expect(record.shard).toBeLessThan(AGGREGATE_SHARDS);
    expect(entry?.Item).toEqual(
      expect.objectContaining({
        PK: `OP#acme#USAGE#ENTRIES#${record.shard}`,
        SK: `ENTRY#${String(record.entry.ID).padStart(16, '0')}`,
        Meter: 'api-calls',
        Usage: 0.25,
        OccurredAt: input.OccurredAt,
        Hour: '2026-06-01T09',
      }),
    );
    expect(aggregate?.Key).toEqual({ PK: `OP#acme#USAGE#AGGREGATES#${record.shard}`, SK: 'HOUR#2026-06-01T09#api-calls' });
    expect(aggregate?.ExpressionAttributeValues).toEqual(
      expect.objectContaining({ ':usage': 0.25, ':one': 1, ':start': Date.parse('2026-06-01T09:00:00Z') / 1000 }),
    );
  });

  it('adds a conditional idempotency record first when a key is given, and stamps the server time when OccurredAt is absent', () => {
    const record = prepareUsageRecord('acme', { Meter: 'api-calls', Usage: 1 }, { now, idempotencyKey: 'k-1' });
    const { TransactItems = [] } = usageRecordTransaction(record);
    expect(TransactItems).toHaveLength(3);
    const idempotency = TransactItems[0].Put;
    expect(idempotency?.Item).toEqual(
      expect.objectContaining({ SK: 'IDEMPOTENCY', Entry: record.entry, ExpiresAt: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS }),
    );
    expect(record.entry.OccurredAt).toBe(Math.floor(now.getTime() / 1000));
    // The same fields with the same key fingerprint alike; other fields do not.
    expect(prepareUsageRecord('acme', { Meter: 'api-calls', Usage: 1 }, { idempotencyKey: 'k-1' }).idempotency?.requestHash).toBe(record.idempotency?.requestHash);
    expect(prepareUsageRecord('acme', { Meter: 'api-calls', Usage: 2 }, { idempotencyKey: 'k-1' }).idempotency?.requestHash).not.toBe(record.idempotency?.requestHash);
  });
});
