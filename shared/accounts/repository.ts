import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import * as keys from '../db/keys';
import { transactionCancellation } from '../db/transaction-errors';
import type { ApiKeyRecord, KeyLimits, Operator } from './model';
import type { HoldCaps } from './hold-caps';

/** One function per accounts access pattern; see the README's access-pattern table. */

/** False when the operator already exists. */
export async function putNewOperator(operator: Operator): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.operator(operator.OperatorID), Entity: 'Operator', ...operator },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function getOperatorItem(operatorId: string): Promise<Operator | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.operator(operatorId) }));
  return Item as Operator | undefined;
}

/** Writes both views of a new key at once: the authorizer's (by secret hash) and the operator's (by key ID). */
export async function putNewApiKey(record: ApiKeyRecord, secretHash: string): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.apiKeyByHash(secretHash), Entity: 'ApiKey', ...record },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.operatorApiKey(record.OperatorID, record.KeyID), Entity: 'OperatorApiKey', ...record, SecretHash: secretHash },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
}

export async function getApiKeyByHash(secretHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyByHash(secretHash) }));
  return Item as ApiKeyRecord | undefined;
}

export async function getOperatorApiKey(
  operatorId: string,
  keyId: string,
  { consistent = false } = {},
): Promise<(ApiKeyRecord & { SecretHash: string }) | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId), ConsistentRead: consistent }),
  );
  return Item as (ApiKeyRecord & { SecretHash: string }) | undefined;
}

export async function queryOperatorApiKeys(operatorId: string): Promise<ApiKeyRecord[]> {
  const { PK, SKPrefix } = keys.operatorApiKeyPrefix(operatorId);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ProjectionExpression:
        'KeyID, OperatorID, Scopes, #name, #status, CreatedAt, RevokedAt, RateLimit, BurstLimit, UsageIdentifierKey, ApiGatewayKeyId, ' +
        'MaxHeldPlacesPerTimeslot, MaxHeldPlaces',
      ExpressionAttributeNames: { '#name': 'Name', '#status': 'Status' },
    }),
  );
  return (Items ?? []) as ApiKeyRecord[];
}

/** Revokes both views of a key at once; false when either view is gone. Revoking a revoked key keeps its first RevokedAt. */
export const writeRevocation = (operatorId: string, keyId: string, secretHash: string, revokedAt: string): Promise<boolean> =>
  updateBothViews(operatorId, keyId, secretHash, {
    UpdateExpression: 'SET #status = :revoked, RevokedAt = if_not_exists(RevokedAt, :now)',
    ExpressionAttributeNames: { '#status': 'Status' },
    ExpressionAttributeValues: { ':revoked': 'REVOKED', ':now': revokedAt },
  });

/** One update of both views of a key at once; false when either view is gone. */
async function updateBothViews(
  operatorId: string,
  keyId: string,
  secretHash: string,
  update: {
    UpdateExpression: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  },
): Promise<boolean> {
  const conditioned = { ...update, ConditionExpression: 'attribute_exists(PK)' };
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId), ...conditioned } },
          { Update: { TableName: tableName(), Key: keys.apiKeyByHash(secretHash), ...conditioned } },
        ],
      }),
    );
    return true;
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (cancellation && (cancellation.conditionFailed(0) || cancellation.conditionFailed(1))) return false;
    throw error;
  }
}

/** Sets a key's limits; a key made before limits also gets the usage identifier given. */
export const writeKeyLimits = (
  operatorId: string,
  keyId: string,
  secretHash: string,
  limits: KeyLimits,
  usageIdentifierKey: string,
): Promise<boolean> =>
  updateBothViews(operatorId, keyId, secretHash, {
    UpdateExpression: 'SET RateLimit = :rate, BurstLimit = :burst, UsageIdentifierKey = if_not_exists(UsageIdentifierKey, :usage)',
    ExpressionAttributeValues: { ':rate': limits.rateLimit, ':burst': limits.burstLimit, ':usage': usageIdentifierKey },
  });

export const writeApiGatewayKeyId = (operatorId: string, keyId: string, secretHash: string, apiGatewayKeyId: string): Promise<boolean> =>
  updateBothViews(operatorId, keyId, secretHash, {
    UpdateExpression: 'SET ApiGatewayKeyId = :id',
    ExpressionAttributeValues: { ':id': apiGatewayKeyId },
  });

/** Sets a key's caps on held places. */
export const writeHoldCaps = (operatorId: string, keyId: string, secretHash: string, caps: HoldCaps): Promise<boolean> =>
  updateBothViews(operatorId, keyId, secretHash, {
    UpdateExpression: 'SET MaxHeldPlacesPerTimeslot = :perTimeslot, MaxHeldPlaces = :total',
    ExpressionAttributeValues: { ':perTimeslot': caps.perTimeslot, ':total': caps.total },
  });
