import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { routes } from '../../shared/api/routes';
import { findActiveKey, keyLimits } from '../../shared/accounts/api-keys';
import { getOperator } from '../../shared/accounts/operators';
import { countBusinessEvent } from '../../shared/core/metrics';
import { policyFor } from '../../shared/http/authorizer-policy';
import { toAuthorizerContext } from '../../shared/http/caller';
import { log } from '../../shared/http/observability';

/** API Gateway answers this exact message with its 401 (UNAUTHORIZED) gateway response. */
const unauthorized = () => new Error('Unauthorized');

const bearerToken = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

/**
 * The key authorizer. API Gateway caches its answer per Authorization header
 * (AUTHORIZER_CACHE_TTL_SECONDS), so its log lines and allow/deny counts are
 * per key and cache period, not per request. Neither ever holds the secret.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const token = bearerToken(authorization);
  const key = token ? await findActiveKey(token) : undefined;
  const operator = key && (await getOperator(key.OperatorID));
  if (!key || !operator) {
    countBusinessEvent('Authorizations', 'denied');
    log().info('Authorization', { outcome: 'denied', reason: token ? 'unknown or revoked key' : 'no Bearer token' });
    throw unauthorized();
  }
  const { rateLimit, burstLimit } = keyLimits(key);
  const context = {
    ...toAuthorizerContext({ operatorId: operator.OperatorID, keyId: key.KeyID, scopes: key.Scopes, timeZone: operator.TimeZone }),
    // For the local host's token buckets; in AWS the usage plan of `usageIdentifierKey` holds the same limits.
    rateLimit,
    burstLimit,
  };
  const policy = policyFor(key.KeyID, event.methodArn, key.Scopes, routes, context);
  const outcome = policy.policyDocument.Statement.some((statement) => statement.Effect === 'Allow') ? 'allowed' : 'denied';
  countBusinessEvent('Authorizations', outcome, operator.OperatorID);
  log().info('Authorization', { outcome, operatorId: operator.OperatorID, keyId: key.KeyID, scopes: key.Scopes.join(' ') });
  return { ...policy, usageIdentifierKey: key.UsageIdentifierKey };
}
