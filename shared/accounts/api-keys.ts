import { createHash, randomBytes } from 'node:crypto';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import type { ApiKeyRecord, KeyLimits } from './model';
import { requireOperator } from './operators';
import {
  getApiKeyByHash,
  getOperatorApiKey,
  putNewApiKey,
  queryOperatorApiKeys,
  writeApiGatewayKeyId,
  writeHoldCaps,
  writeKeyLimits,
  writeRevocation,
} from './repository';
import { isScope, type Scope } from './scopes';
import { checkHoldCaps, DEFAULT_HOLD_CAPS, type HoldCaps } from './hold-caps';

export type { ApiKeyRecord, KeyLimits };

/** API Gateway's account-level default throttle (10,000 rps, burst 5,000) bounds what one key may be given. */
/**
 * A key's own token bucket unless its operator gives it other limits
 * (`create-key --rate --burst`, `set-key-limits`): 50 requests per second,
 * 100 at once. One partner at its limit leaves the stage room for nine more.
 */
export const DEFAULT_KEY_LIMITS: KeyLimits = { rateLimit: 50, burstLimit: 100 };

export const MAX_KEY_LIMITS: KeyLimits = { rateLimit: 10_000, burstLimit: 5_000 };

export const keyLimits = (record: Pick<ApiKeyRecord, 'RateLimit' | 'BurstLimit'>): KeyLimits => ({
  rateLimit: record.RateLimit ?? DEFAULT_KEY_LIMITS.rateLimit,
  burstLimit: record.BurstLimit ?? DEFAULT_KEY_LIMITS.burstLimit,
});

/** Rate: a positive number with at most two decimals (API Gateway's precision); burst: a whole number from 1. */
export function checkKeyLimits(limits: KeyLimits): KeyLimits {
  const { rateLimit, burstLimit } = limits;
  const hundredths = rateLimit * 100;
  if (!(Number.isFinite(rateLimit) && rateLimit > 0 && rateLimit <= MAX_KEY_LIMITS.rateLimit && Math.round(hundredths) === hundredths)) {
    throw new ValidationError(
      `must be a number of requests per second above 0 and up to ${MAX_KEY_LIMITS.rateLimit}, with at most two decimals`,
      {
        field: 'rate',
      },
    );
  }
  if (!(Number.isInteger(burstLimit) && burstLimit >= 1 && burstLimit <= MAX_KEY_LIMITS.burstLimit)) {
    throw new ValidationError(`must be a whole number of requests from 1 to ${MAX_KEY_LIMITS.burstLimit}`, { field: 'burst' });
  }
  return limits;
}

const SECRET_PREFIX = 'ak_';

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
  holdCaps: HoldCaps = DEFAULT_HOLD_CAPS,
): Promise<{ record: ApiKeyRecord; secret: string }> {
  checkKeyLimits(limits);
  checkHoldCaps(holdCaps);
  await requireOperator(operatorId);
  const secret = newSecret();
  const record: ApiKeyRecord = {
    KeyID: newKeyId(),
    OperatorID: operatorId,
    Scopes: scopes,
    Name: name,
    Status: 'ACTIVE',
    CreatedAt: config().clock().toISOString(),
    RateLimit: limits.rateLimit,
    BurstLimit: limits.burstLimit,
    UsageIdentifierKey: newUsageIdentifierKey(),
    MaxHeldPlacesPerTimeslot: holdCaps.perTimeslot,
    MaxHeldPlaces: holdCaps.total,
  };
  await putNewApiKey(record, hashSecret(secret));
  return { record, secret };
}

/** The active key behind a presented secret, or undefined for unknown and revoked keys. */
export async function findActiveKey(secret: string): Promise<ApiKeyRecord | undefined> {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const record = await getApiKeyByHash(hashSecret(secret));
  return record?.Status === 'ACTIVE' ? record : undefined;
}

export const listApiKeys = (operatorId: string): Promise<ApiKeyRecord[]> => queryOperatorApiKeys(operatorId);

/** Whether the operator's key exists and is not revoked, as of now (a consistent read: a revocation a moment ago counts). */
export const isKeyActive = async (operatorId: string, keyId: string): Promise<boolean> =>
  (await getOperatorApiKey(operatorId, keyId, { consistent: true }))?.Status === 'ACTIVE';

/**
 * Revokes both views of the key at once; revoking a revoked key changes
 * nothing. What the key had set up elsewhere goes with it: see
 * shared/webhooks/key-revocation.ts.
 */
export async function revokeApiKey(operatorId: string, keyId: string): Promise<void> {
  const key = await getOperatorApiKey(operatorId, keyId);
  if (!key || !(await writeRevocation(operatorId, keyId, key.SecretHash, config().clock().toISOString()))) {
    throw new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);
  }
}

const noSuchKey = (operatorId: string, keyId: string) => new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);

/** One key of an operator, as listed (never its secret hash). */
export async function getApiKey(operatorId: string, keyId: string): Promise<ApiKeyRecord> {
  const key = await getOperatorApiKey(operatorId, keyId);
  if (!key) throw noSuchKey(operatorId, keyId);
  const { SecretHash: _secretHash, ...record } = key;
  return record;
}

/**
 * Gives a key new limits. A key made before limits existed also gets its
 * usage identifier here, which API Gateway needs to throttle it by a plan.
 */
export async function setApiKeyLimits(operatorId: string, keyId: string, limits: KeyLimits): Promise<ApiKeyRecord> {
  checkKeyLimits(limits);
  const key = await getOperatorApiKey(operatorId, keyId);
  if (!key || !(await writeKeyLimits(operatorId, keyId, key.SecretHash, limits, newUsageIdentifierKey())))
    throw noSuchKey(operatorId, keyId);
  return getApiKey(operatorId, keyId);
}

/** Gives a key new caps on the places it may hold at once; they apply once the authorizer's cached answer for it expires. */
export async function setHoldCaps(operatorId: string, keyId: string, caps: HoldCaps): Promise<ApiKeyRecord> {
  checkHoldCaps(caps);
  const key = await getOperatorApiKey(operatorId, keyId);
  if (!key || !(await writeHoldCaps(operatorId, keyId, key.SecretHash, caps))) throw noSuchKey(operatorId, keyId);
  return getApiKey(operatorId, keyId);
}

/** Remembers the API Gateway API key made for this key (by the admin CLI with --aws), so revoking can delete it. */
export async function setApiGatewayKeyId(operatorId: string, keyId: string, apiGatewayKeyId: string): Promise<void> {
  const key = await getOperatorApiKey(operatorId, keyId);
  if (!key || !(await writeApiGatewayKeyId(operatorId, keyId, key.SecretHash, apiGatewayKeyId))) throw noSuchKey(operatorId, keyId);
}
