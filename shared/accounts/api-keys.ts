import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_KEY_LIMITS } from '../api/gateway';
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
  /** Requests per second the key's token bucket refills with; the default's when absent (keys made before limits). */
  RateLimit?: number;
  /** The bucket's size: how many requests the key may send at once. */
  BurstLimit?: number;
  /**
   * The value of the key's API Gateway API key, which the authorizer hands to
   * API Gateway so that the key's usage plan throttles it. Not a credential:
   * with the API's key source AUTHORIZER, a client cannot present it.
   */
  UsageIdentifierKey?: string;
  /** The ID of that API Gateway API key, once the admin CLI has created it (--aws). */
  ApiGatewayKeyId?: string;
}

/** A key's token bucket: `rateLimit` requests per second on average, `burstLimit` at once. */
export interface KeyLimits {
  rateLimit: number;
  burstLimit: number;
}

/** API Gateway's account-level default throttle (10,000 rps, burst 5,000) bounds what one key may be given. */
export const MAX_KEY_LIMITS: KeyLimits = { rateLimit: 10_000, burstLimit: 5_000 };

export const keyLimits = (record: Pick<ApiKeyRecord, 'RateLimit' | 'BurstLimit'>): KeyLimits => ({
  rateLimit: record.RateLimit ?? DEFAULT_KEY_LIMITS.rateLimit,
  burstLimit: record.BurstLimit ?? DEFAULT_KEY_LIMITS.burstLimit,
});

/** Rate: a positive number with at most two decimals (API Gateway's precision); burst: a whole number from 1. */
export function checkKeyLimits(limits: KeyLimits): KeyLimits {
  const { rateLimit, burstLimit } = limits;
  if (!(Number.isFinite(rateLimit) && rateLimit > 0 && rateLimit <= MAX_KEY_LIMITS.rateLimit && Math.round(rateLimit * 100) === rateLimit * 100)) {
    throw new ValidationError(`must be a number of requests per second above 0 and up to ${MAX_KEY_LIMITS.rateLimit}, with at most two decimals`, { field: 'rate' });
  }
  if (!(Number.isInteger(burstLimit) && burstLimit >= 1 && burstLimit <= MAX_KEY_LIMITS.burstLimit)) {
    throw new ValidationError(`must be a whole number of requests from 1 to ${MAX_KEY_LIMITS.burstLimit}`, { field: 'burst' });
  }
  return limits;
}

const SECRET_PREFIX = 'ak_';

const LISTED_ATTRIBUTES = 'KeyID, OperatorID, Scopes, CreatedAt, RevokedAt, RateLimit, BurstLimit, UsageIdentifierKey, ApiGatewayKeyId';

const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** 256 random bits: unguessable, and safe to store as an unsalted hash. */
const newSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
const newKeyId = () => `key_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
/** API Gateway takes 20 to 128 characters as an API key value. */
const newUsageIdentifierKey = () => `uk_${randomBytes(24).toString('base64url')}`;

export function parseScopes(list: string): Scope[] {
  const scopes = [...new Set(list.split(/[\s,]+/).filter(Boolean))];
  if (scopes.length === 0) throw new ValidationError('Give at least one scope');
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length) throw new ValidationError(`Unknown scope(s): ${unknown.join(', ')}`);
  return scopes as Scope[];
}

/** Creates a key and returns its secret: the only time the secret exists outside the caller's hands. */
export async function createApiKey(
  operatorId: string,
  scopes: Scope[],
  name: string,
  limits: KeyLimits = DEFAULT_KEY_LIMITS,
): Promise<{ record: ApiKeyRecord; secret: string }> {
  checkKeyLimits(limits);
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
    RateLimit: limits.rateLimit,
    BurstLimit: limits.burstLimit,
    UsageIdentifierKey: newUsageIdentifierKey(),
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
      ProjectionExpression: `${LISTED_ATTRIBUTES}, #name, #status`,
      ExpressionAttributeNames: { '#name': 'Name', '#status': 'Status' },
    }),
  );
  return (Items ?? []) as ApiKeyRecord[];
}

/** One key of an operator, as listed (never its secret hash). */
export async function getApiKey(operatorId: string, keyId: string): Promise<ApiKeyRecord> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId) }));
  if (!Item) throw new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);
  const { SecretHash: _secretHash, PK: _pk, SK: _sk, Entity: _entity, ...record } = Item;
  return record as ApiKeyRecord;
}

type KeyUpdate = Required<Pick<UpdateCommandInput, 'UpdateExpression' | 'ExpressionAttributeValues'>> &
  Pick<UpdateCommandInput, 'ExpressionAttributeNames'>;

/** Applies one update to both views of a key (the operator's list and the authorizer's lookup by hash) at once. */
async function updateBothViews(operatorId: string, keyId: string, update: KeyUpdate): Promise<void> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId) }));
  if (!Item) throw new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);
  const conditioned = { ...update, ConditionExpression: 'attribute_exists(PK)' };
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: tableName(), Key: keys.operatorApiKey(operatorId, keyId), ...conditioned } },
          { Update: { TableName: tableName(), Key: keys.apiKeyByHash(Item.SecretHash as string), ...conditioned } },
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

/** Revokes both views of the key at once; revoking a revoked key changes nothing. */
export async function revokeApiKey(operatorId: string, keyId: string): Promise<void> {
  await updateBothViews(operatorId, keyId, {
    UpdateExpression: 'SET #status = :revoked, RevokedAt = if_not_exists(RevokedAt, :now)',
    ExpressionAttributeNames: { '#status': 'Status' },
    ExpressionAttributeValues: { ':revoked': 'REVOKED', ':now': new Date().toISOString() },
  });
}

/**
 * Gives a key new limits. A key made before limits existed also gets its
 * usage identifier here, which API Gateway needs to throttle it by a plan.
 */
export async function setApiKeyLimits(operatorId: string, keyId: string, limits: KeyLimits): Promise<ApiKeyRecord> {
  checkKeyLimits(limits);
  await updateBothViews(operatorId, keyId, {
    UpdateExpression: 'SET RateLimit = :rate, BurstLimit = :burst, UsageIdentifierKey = if_not_exists(UsageIdentifierKey, :usage)',
    ExpressionAttributeValues: { ':rate': limits.rateLimit, ':burst': limits.burstLimit, ':usage': newUsageIdentifierKey() },
  });
  return getApiKey(operatorId, keyId);
}

/** Remembers the API Gateway API key made for this key (by the admin CLI with --aws), so revoking can remove it. */
export async function setApiGatewayKeyId(operatorId: string, keyId: string, apiGatewayKeyId: string): Promise<void> {
  await updateBothViews(operatorId, keyId, {
    UpdateExpression: 'SET ApiGatewayKeyId = :id',
    ExpressionAttributeValues: { ':id': apiGatewayKeyId },
  });
}
