import { configure } from '../../shared/core/config';
import { batchGet, batchWrite } from '../../shared/db/batch';
import { attributeClient } from '../../shared/db/client';

/**
 * DynamoDB answers a batch it could only partly serve with the rest as
 * UnprocessedKeys (UnprocessedItems), which DynamoDB Local never does: here
 * the client answers the batch calls itself, as DynamoDB under load would.
 */

const TABLE = 'ota-batch-unit';
const calls: { command: string; keys: number }[] = [];
/** How many of each call's keys or requests the fake table serves; the rest it hands back unprocessed. */
let serves = (count: number) => count;

beforeAll(() => {
  configure({
    tableName: TABLE,
    region: 'eu-west-1',
    dynamoEndpoint: 'http://127.0.0.1:9',
    localCredentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  attributeClient().middlewareStack.add(
    () => async (args) => {
      const input = args.input as { RequestItems: Record<string, { Keys?: Record<string, unknown>[] } | Record<string, unknown>[]> };
      const sent = input.RequestItems[TABLE];
      if (Array.isArray(sent)) {
        calls.push({ command: 'BatchWriteItem', keys: sent.length });
        const served = serves(sent.length);
        return { output: { $metadata: {}, UnprocessedItems: served < sent.length ? { [TABLE]: sent.slice(served) } : {} }, response: {} };
      }
      const keys = sent.Keys ?? [];
      calls.push({ command: 'BatchGetItem', keys: keys.length });
      const served = serves(keys.length);
      const items = keys.slice(0, served).map((key) => ({ ...key, Found: true }));
      const unprocessed = keys.slice(served);
      return {
        output: {
          $metadata: {},
          Responses: { [TABLE]: items },
          UnprocessedKeys: unprocessed.length ? { [TABLE]: { ...sent, Keys: unprocessed } } : {},
        },
        response: {},
      };
    },
    { step: 'serialize', priority: 'high', name: 'fakeBatchTable' },
  );
});

beforeEach(() => {
  calls.length = 0;
  serves = (count) => count;
});

const keys = (count: number) => Array.from({ length: count }, (_, i) => ({ PK: `P#${i}`, SK: 'S' }));

describe('batchGet', () => {
  it('reads in batches of 100 keys and hands every item over', async () => {
    const found: string[] = [];
    await batchGet('Reading probes', keys(250), undefined, (item) => found.push(item.PK as string));
    expect(calls).toEqual([
      { command: 'BatchGetItem', keys: 100 },
      { command: 'BatchGetItem', keys: 100 },
      { command: 'BatchGetItem', keys: 50 },
    ]);
    expect(found.sort()).toEqual(
      keys(250)
        .map((key) => key.PK)
        .sort(),
    );
  });

  it('sends the unprocessed keys again until every one is read', async () => {
    serves = (count) => Math.min(count, 30);
    const found: string[] = [];
    await batchGet('Reading probes', keys(100), undefined, (item) => found.push(item.PK as string));
    expect(calls.map((call) => call.keys)).toEqual([100, 70, 40, 10]);
    expect(new Set(found).size).toBe(100);
  });

  it('gives up, naming what it read, when the table serves nothing', async () => {
    serves = () => 0;
    await expect(batchGet('Reading probes', keys(3), undefined, () => undefined)).rejects.toThrow(
      'Reading probes did not settle in 8 attempts',
    );
    expect(calls).toHaveLength(8);
  });
});

describe('batchWrite', () => {
  it('writes in batches of 25 and sends the unprocessed requests again', async () => {
    serves = (count) => Math.min(count, 20);
    const requests = keys(30).map((key) => ({ PutRequest: { Item: key } }));
    await batchWrite('Writing probes', requests);
    expect(calls.map((call) => call.keys)).toEqual([25, 5, 5]);
  });
});
