import { configure } from '../../shared/core/config';
import { batchGet, batchGetAttributes, batchWrite } from '../../shared/db/batch';
import { attributeClient } from '../../shared/db/client';

/**
 * DynamoDB answers a batch it could only partly serve with the rest as
 * UnprocessedKeys (UnprocessedItems), which DynamoDB Local never does: here
 * the client answers the batch calls itself, as DynamoDB under load would.
 */

const TABLE = 'ota-batch-unit';
const calls: { command: string; keys: number; consistent?: boolean }[] = [];
/** How many of each call's keys or requests the fake table serves; the rest it hands back unprocessed. */
let serves = (count: number) => count;
/** Batch reads the fake table is answering at once, and the most it has. */
const inFlight = { now: 0, most: 0 };

beforeAll(() => {
  configure({
    tableName: TABLE,
    region: 'eu-west-1',
    dynamoEndpoint: 'http://127.0.0.1:9',
    localCredentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  attributeClient().middlewareStack.add(
    () => async (args) => {
      const input = args.input as {
        RequestItems: Record<string, { Keys?: Record<string, unknown>[]; ConsistentRead?: boolean } | Record<string, unknown>[]>;
        ReturnConsumedCapacity?: string;
      };
      const sent = input.RequestItems[TABLE];
      if (Array.isArray(sent)) {
        calls.push({ command: 'BatchWriteItem', keys: sent.length });
        const served = serves(sent.length);
        return { output: { $metadata: {}, UnprocessedItems: served < sent.length ? { [TABLE]: sent.slice(served) } : {} }, response: {} };
      }
      const keys = sent.Keys ?? [];
      calls.push({ command: 'BatchGetItem', keys: keys.length, consistent: sent.ConsistentRead });
      inFlight.most = Math.max(inFlight.most, ++inFlight.now);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight.now -= 1;
      const served = serves(keys.length);
      const items = keys.slice(0, served).map((key) => ({ ...key, Found: true }));
      const unprocessed = keys.slice(served);
      return {
        output: {
          $metadata: {},
          Responses: { [TABLE]: items },
          UnprocessedKeys: unprocessed.length ? { [TABLE]: { ...sent, Keys: unprocessed } } : {},
          // Half a unit an item, as eventually consistent reads of small items cost.
          ...(input.ReturnConsumedCapacity === 'TOTAL' ? { ConsumedCapacity: [{ TableName: TABLE, CapacityUnits: served / 2 }] } : {}),
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
  inFlight.most = 0;
});

const keys = (count: number) => Array.from({ length: count }, (_, i) => ({ PK: `P#${i}`, SK: 'S' }));

describe('batchGet', () => {
  it('reads in batches of 100 keys and hands every item over', async () => {
    const found: string[] = [];
    await batchGet('Reading probes', keys(250), {}, (item) => found.push(item.PK as string));
    expect(calls).toEqual([
      { command: 'BatchGetItem', keys: 100, consistent: true },
      { command: 'BatchGetItem', keys: 100, consistent: true },
      { command: 'BatchGetItem', keys: 50, consistent: true },
    ]);
    expect(inFlight.most).toBe(1);
    expect(found.sort()).toEqual(
      keys(250)
        .map((key) => key.PK)
        .sort(),
    );
  });

  it('sends the unprocessed keys again until every one is read', async () => {
    serves = (count) => Math.min(count, 30);
    const found: string[] = [];
    await batchGet('Reading probes', keys(100), {}, (item) => found.push(item.PK as string));
    expect(calls.map((call) => call.keys)).toEqual([100, 70, 40, 10]);
    expect(new Set(found).size).toBe(100);
  });

  it('gives up, naming what it read, when the table serves nothing', async () => {
    serves = () => 0;
    await expect(batchGet('Reading probes', keys(3), {}, () => undefined)).rejects.toThrow('Reading probes did not settle in 8 attempts');
    expect(calls).toHaveLength(8);
  });
});

describe('batchGetAttributes', () => {
  it('reads attribute values, the batches asked for at once, eventually consistent when asked, adding up what they cost', async () => {
    serves = (count) => Math.min(count, 90);
    const found: string[] = [];
    const cost = { queries: 0, itemsRead: 0, capacityUnits: 0 };
    await batchGetAttributes('Reading probes', keys(400), { consistent: false, parallel: 3, cost }, (item) =>
      found.push(item.PK.S as string),
    );
    expect(found.sort()).toEqual(
      keys(400)
        .map((key) => key.PK)
        .sort(),
    );
    // Four batches of 100, three at once, each served 90 keys and then its last 10.
    expect(inFlight.most).toBe(3);
    expect(calls.map((call) => call.keys).sort((a, b) => a - b)).toEqual([10, 10, 10, 10, 100, 100, 100, 100]);
    expect(calls.every((call) => call.consistent === false)).toBe(true);
    expect(cost).toEqual({ queries: 8, itemsRead: 400, capacityUnits: 200 });
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
