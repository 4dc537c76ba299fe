import { QueryCommand, type AttributeValue, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { attributeClient, tableName } from './client';
import type { Projection } from './batch';

/** What reads cost DynamoDB, added up by the reads that are given one; with `maxItems`, a budget they stop at. */
export interface QueryCost {
  queries: number;
  itemsRead: number;
  capacityUnits: number;
  maxItems?: number;
}

/** A key range of one partition: from one sort key to another (both included), or every sort key that begins with a prefix. */
export type KeyRange = { PK: string; SKFrom?: string; SKTo?: string; SKPrefix?: string };

/**
 * Every page of one key range, read with the low-level client (numbers stay
 * DynamoDB's decimal text, never a JavaScript float), each page's items
 * handed to `each`; `cost` adds up what the reads cost, and once its
 * `maxItems` are passed (by this read or another sharing it) reading stops.
 */
export async function queryPages(
  range: KeyRange,
  projection: Projection | undefined,
  each: (item: Record<string, AttributeValue>) => void,
  cost?: QueryCost,
): Promise<void> {
  const values: Record<string, AttributeValue> = { ':pk': { S: range.PK } };
  let keyCondition: string;
  if (range.SKPrefix !== undefined) {
    keyCondition = 'PK = :pk AND begins_with(SK, :prefix)';
    values[':prefix'] = { S: range.SKPrefix };
  } else {
    keyCondition = 'PK = :pk AND SK BETWEEN :from AND :to';
    Object.assign(values, { ':from': { S: range.SKFrom as string }, ':to': { S: range.SKTo as string } });
  }
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  // With a budget, no page reads past the first item over it, and no page is asked for once it is spent (by any reader sharing `cost`).
  const left = () => (cost?.maxItems === undefined ? undefined : cost.maxItems + 1 - cost.itemsRead);
  do {
    if ((left() ?? 1) <= 0) return;
    const page: QueryCommandOutput = await attributeClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: keyCondition,
        ProjectionExpression: projection?.expression,
        ExpressionAttributeNames: projection?.names,
        ExpressionAttributeValues: values,
        ReturnConsumedCapacity: cost ? 'TOTAL' : undefined,
        Limit: left(),
        ExclusiveStartKey,
      }),
    );
    (page.Items ?? []).forEach(each);
    if (cost) {
      cost.queries += 1;
      cost.itemsRead += page.ScannedCount ?? 0;
      cost.capacityUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}
