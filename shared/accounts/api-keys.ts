import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError, ValidationError } from '../core/errors';
import type { ApiKeyRecord } from './model';
import { requireOperator } from './operators';
import { getApiKeyByHash, getOperatorApiKey, putNewApiKey, queryOperatorApiKeys, writeRevocation } from './repository';
import { isScope, type Scope } from './scopes';

export type { ApiKeyRecord };

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
  await requireOperator(operatorId);
  const secret = newSecret();
  const record: ApiKeyRecord = {
    KeyID: newKeyId(),
    OperatorID: operatorId,
    Scopes: scopes,
    Name: name,
    Status: 'ACTIVE',
    CreatedAt: new Date().toISOString(),
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

/** Revokes both views of the key at once; revoking a revoked key changes nothing. */
export async function revokeApiKey(operatorId: string, keyId: string): Promise<void> {
  const key = await getOperatorApiKey(operatorId, keyId);
  if (!key || !(await writeRevocation(operatorId, keyId, key.SecretHash, new Date().toISOString()))) {
    throw new NotFoundError(`Operator '${operatorId}' has no key '${keyId}'`);
  }
}
