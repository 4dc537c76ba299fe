import { QueryCommand, type AttributeValue, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { QueryCommand as DocumentQueryCommand, type QueryCommandInput as DocumentQueryInput } from '@aws-sdk/lib-dynamodb';
import { attributeClient, documentClient, tableName } from './client';
import type { Projection, QueryCost } from './reads';

/** A key range of one partition: from one sort key to another (both included), or every sort key that begins with a prefix. */
export type KeyRange = { PK: string; SKFrom?: string; SKTo?: string; SKPrefix?: string };

/** The one paging loop: each page read from where the last one ended, until one ends the range or `read` answers no key (enough is read). */
async function eachPage<Key>(read: (startKey: Key | undefined) => Promise<Key | undefined>): Promise<void> {
  let startKey: Key | undefined;
  do startKey = await read(startKey);
  while (startKey);
}

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
  // With a budget, no page reads past the first item over it, and no page is asked for once it is spent (by any reader sharing `cost`).
  const left = () => (cost?.maxItems === undefined ? undefined : cost.maxItems + 1 - cost.itemsRead);
  await eachPage(async (ExclusiveStartKey: Record<string, AttributeValue> | undefined) => {
    if ((left() ?? 1) <= 0) return undefined;
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
    return page.LastEvaluatedKey;
  });
}

/**
 * Every page of a Query with the document client (plain JavaScript values:
 * any index, filter or projection its input names), each page's items handed
 * to `each`, until the last page, or until `each` answers false (enough read).
 */
export async function queryItemPages<T>(input: DocumentQueryInput, each: (items: T[]) => boolean | void): Promise<void> {
  await eachPage(async (ExclusiveStartKey: Record<string, unknown> | undefined) => {
    const page = await documentClient().send(new DocumentQueryCommand({ ...input, ExclusiveStartKey }));
    return each((page.Items ?? []) as T[]) === false ? undefined : page.LastEvaluatedKey;
  });
}

/** Every item of a Query with the document client, read page by page. */
export async function queryAll<T>(input: DocumentQueryInput): Promise<T[]> {
  const items: T[] = [];
  await queryItemPages<T>(input, (page) => {
    items.push(...page);
  });
  return items;
}
