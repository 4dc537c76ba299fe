import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { RETRY, retrying } from '../core/retry';
import { documentClient, tableName } from './client';
import type { ItemKey } from './keys';

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

export interface Projection {
  expression: string;
  names?: Record<string, string>;
}

/** Many items by key (consistent reads), each handed to `each` as it arrives; keys without an item are left out. */
export async function batchGet(
  what: string,
  keys: readonly ItemKey[],
  projection: Projection | undefined,
  each: (item: Record<string, unknown>) => void,
): Promise<void> {
  for (const part of chunks(keys, BATCH_GET_LIMIT)) {
    let pending: Record<string, unknown>[] = part.map((key) => ({ ...key }));
    await retrying(what, async () => {
      const output = await documentClient().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: pending,
              ConsistentRead: true,
              ProjectionExpression: projection?.expression,
              ExpressionAttributeNames: projection?.names,
            },
          },
        }),
      );
      (output.Responses?.[tableName()] ?? []).forEach(each);
      pending = output.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      return pending.length ? RETRY : true;
    });
  }
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
