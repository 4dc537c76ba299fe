import { BatchGetItemCommand, type AttributeValue, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { RETRY, retrying } from '../core/retry';
import { attributeClient, documentClient, tableName } from './client';
import type { ItemKey } from './keys';
import type { Projection, QueryCost } from './reads';

/**
 * The one way to read and write many items by key: in DynamoDB's batches
 * (100 keys a read, 25 requests a write), each batch's unprocessed part sent
 * again by the one retry loop (shared/core/retry.ts, exponential backoff with
 * full jitter), as DynamoDB asks of a batch it could only partly serve.
 */

const BATCH_GET_LIMIT = 100;
const BATCH_WRITE_LIMIT = 25;

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** How a batch read reads. */
export interface BatchRead {
  projection?: Projection;
  /** Strongly consistent unless false (eventually consistent: half the capacity, for readers that accept it). */
  consistent?: boolean;
  /** Batches in flight at once: one after the other unless more. */
  parallel?: number;
  /** Adds up each call, the items it returned and the capacity it consumed. */
  cost?: QueryCost;
}

/** What either client answers to one BatchGetItem. */
interface BatchOutput<Key, Item> {
  Responses?: Record<string, Item[]>;
  UnprocessedKeys?: Record<string, { Keys?: Key[] }>;
  ConsumedCapacity?: ConsumedCapacity[];
}

/** The request of one batch of keys, the same for either client. */
const batchRequest = <Key>(keys: Key[], read: BatchRead) => ({
  RequestItems: {
    [tableName()]: {
      Keys: keys,
      ConsistentRead: read.consistent ?? true,
      ProjectionExpression: read.projection?.expression,
      ExpressionAttributeNames: read.projection?.names,
    },
  },
  ReturnConsumedCapacity: read.cost ? ('TOTAL' as const) : undefined,
});

/** The one batch-read loop: `keys` in batches, `read.parallel` at once, each until none is left unprocessed. */
async function readBatches<Key, Item>(
  what: string,
  keys: readonly Key[],
  read: BatchRead,
  send: (keys: Key[]) => Promise<BatchOutput<Key, Item>>,
  each: (item: Item) => void,
): Promise<void> {
  const batches = chunks(keys, BATCH_GET_LIMIT);
  const readBatch = async (batch: Key[]) => {
    let pending = batch;
    await retrying(what, async () => {
      const output = await send(pending);
      const items = output.Responses?.[tableName()] ?? [];
      items.forEach(each);
      if (read.cost) {
        read.cost.queries += 1;
        read.cost.itemsRead += items.length;
        read.cost.capacityUnits += (output.ConsumedCapacity ?? []).reduce((sum, consumed) => sum + (consumed.CapacityUnits ?? 0), 0);
      }
      pending = output.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      return pending.length ? RETRY : true;
    });
  };
  let next = 0;
  const worker = async () => {
    while (next < batches.length) await readBatch(batches[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(read.parallel ?? 1, batches.length) }, worker));
}

type Values = Record<string, unknown>;
type Attributes = Record<string, AttributeValue>;

/** Many items by key, as plain JavaScript values, each handed to `each` as it arrives; keys without an item are left out. */
export function batchGet(what: string, keys: readonly ItemKey[], read: BatchRead, each: (item: Values) => void): Promise<void> {
  const send = (pending: Values[]): Promise<BatchOutput<Values, Values>> =>
    documentClient().send(new BatchGetCommand(batchRequest(pending, read)));
  return readBatches(
    what,
    keys.map((key): Values => ({ ...key })),
    read,
    send,
    each,
  );
}

/**
 * Many items by key as DynamoDB's attribute values (numbers stay its decimal
 * text, never a JavaScript float), each handed to `each` as it arrives; keys
 * without an item are left out.
 */
export function batchGetAttributes(
  what: string,
  keys: readonly ItemKey[],
  read: BatchRead,
  each: (item: Attributes) => void,
): Promise<void> {
  const send = (pending: Attributes[]): Promise<BatchOutput<Attributes, Attributes>> =>
    attributeClient().send(new BatchGetItemCommand(batchRequest(pending, read)));
  return readBatches(
    what,
    keys.map(({ PK, SK }): Attributes => ({ PK: { S: PK }, SK: { S: SK } })),
    read,
    send,
    each,
  );
}

/** Puts and deletes, many at once (BatchWriteItem's requests as the document client takes them). */
export async function batchWrite(what: string, requests: readonly Record<string, unknown>[]): Promise<void> {
  for (const part of chunks(requests, BATCH_WRITE_LIMIT)) {
    let pending = part;
    await retrying(what, async () => {
      const output = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (output.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
      return pending.length ? RETRY : true;
    });
  }
}
