import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { keys } from '../db/keys';
import { NotFoundError, ValidationError } from '../core/errors';
import { getOperator } from './operators';
import { isScope, type Scope } from './scopes';

/** What the authorizer needs about a key; stored under the SHA-256 of its secret. */
export interface ApiKeyRecord {
  KeyID: string;
  OperatorID: string;
  Scopes: Scope[];
  Name: string;
  Status: 'ACTIVE' | 'REVOKED';
  CreatedAt: string;
  RevokedAt?: string;
}

const SECRET_PREFIX = 'ak_';

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** 256 random bits: unguessable, and safe to store as an unsalted hash. */
const newSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
const newKeyId = () => `key_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;

export function parseScopes(list: string): Scope[] {
  const scopes = [...new Set(list.split(/[\s,]+/).filter(Boolean))];
  if (scopes.length === 0) throw new ValidationError('Give at least one scope');
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length) throw new ValidationError(`Unknown scope(s): ${unknown.join(', ')}`);
  return scopes as Scope[];
}

/** Creates a key and returns its secret: the only time the secret exists outside the caller's hands. */
export async function createApiKey(operatorId: string, scopes: Scope[], name: string): Promise<{ record: ApiKeyRecord; secret: string }> {
  if (!(await getOperator(operatorId))) throw new NotFoundError(`Operator '${operatorId}' does not exist`);
  const secret = newSecret();
  const secretHash = hashSecret(secret);
  const record: ApiKeyRecord = {
    KeyID: newKeyId(),
    OperatorID: operatorId,
    Scopes: scopes,
    Name: name,
    Status: 'ACTIVE',
    CreatedAt: new Date().toISOString(),
  };
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
            Item: { ...keys.operatorApiKey(operatorId, record.KeyID), Entity: 'OperatorApiKey', ...record, SecretHash: secretHash },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
  return { record, secret };
}

/** The active key behind a presented secret, or undefined for unknown and revoked keys. */
export async function findActiveKey(secret: string): Promise<ApiKeyRecord | undefined> {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyByHash(hashSecret(secret)) }));
  const record = Item as ApiKeyRecord | undefined;
  return record?.Status === 'ACTIVE' ? record : undefined;
}

export async function listApiKeys(operatorId: string): Promise<ApiKeyRecord[]> {
  const { PK, SKPrefix } = keys.operatorApiKeyPrefix(operatorId);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ProjectionExpression: 'KeyID, OperatorID, Scopes, #name, #status, CreatedAt, RevokedAt',
      ExpressionAttributeNames: { '#name': 'Name', '#status': 'Status' },
    }),
  );
  return (Items ?? []) as ApiKeyRecord[];
}

/** Revokes both views of the key at once; revoking a revoked key changes nothing. */
export async function revokeApiKey(operatorId: string, keyId: string): Promise<void> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId) }));
  if (!Item) throw new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);
  const revoke = {
    UpdateExpression: 'SET #status = :revoked, RevokedAt = if_not_exists(RevokedAt, :now)',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#status': 'Status' },
    ExpressionAttributeValues: { ':revoked': 'REVOKED', ':now': new Date().toISOString() },
  };
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId), ...revoke } },
          { Update: { TableName: tableName(), Key: keys.apiKeyByHash(Item.SecretHash as string), ...revoke } },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException || error instanceof ConditionalCheckFailedException) {
      throw new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);
    }
    throw error;
  }
}
