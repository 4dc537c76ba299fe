import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import * as dueKeys from './due-keys';
import { GSI3 } from './table-design';

/**
 * The sparse index of work that falls due (holds to expire, webhook
 * deliveries to retry): up to `limit` items of one kind due at `nowIso` or
 * before, oldest first. Shared by the domains that put items on it, so the
 * sweeps read it one way.
 */
export async function queryDueItems<T>(kind: Parameters<typeof dueKeys.dueBy>[0], nowIso: string, limit: number): Promise<T[]> {
  const { GSI3PK, SKTo } = dueKeys.dueBy(kind, nowIso);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI3,
      KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK <= :to',
      ExpressionAttributeValues: { ':pk': GSI3PK, ':to': SKTo },
      Limit: limit,
    }),
  );
  return (Items ?? []) as T[];
}
