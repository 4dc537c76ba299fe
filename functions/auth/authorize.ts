import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { routes } from '../../shared/api/routes';
import { findActiveKey, keyLimits } from '../../shared/accounts/api-keys';
import { holdCapsOf } from '../../shared/accounts/hold-caps';
import { getOperator } from '../../shared/accounts/operators';
import { countBusinessEvent } from '../../shared/core/metrics';
import { annotate, observed } from '../../shared/core/observability';
import { policyFor } from '../../shared/http/authorizer-policy';
import { toAuthorizerContext } from '../../shared/http/caller';

/** API Gateway answers this exact message with its 401 (UNAUTHORIZED) gateway response. */
const UNAUTHORIZED = 'Unauthorized';

const bearerToken = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const token = bearerToken(authorization);
  const key = token ? await findActiveKey(token) : undefined;
  const operator = key && (await getOperator(key.OperatorID));
  if (!key || !operator) {
    countBusinessEvent('Authorizations', 'denied');
    annotate({ outcome: 'denied', reason: token ? 'unknown or revoked key' : 'no Bearer token' });
    throw new Error(UNAUTHORIZED);
  }
  const { rateLimit, burstLimit } = keyLimits(key);
  const context = {
    ...toAuthorizerContext({
      operatorId: operator.OperatorID,
      keyId: key.KeyID,
      scopes: key.Scopes,
      timeZone: operator.TimeZone,
      holdCaps: holdCapsOf(key),
    }),
    // For the local host's token buckets; in AWS the usage plan of `usageIdentifierKey` holds the same limits.
    rateLimit,
    burstLimit,
  };
  const policy = policyFor(key.KeyID, event.methodArn, key.Scopes, routes, context);
  const outcome = policy.policyDocument.Statement.some((statement) => statement.Effect === 'Allow') ? 'allowed' : 'denied';
  countBusinessEvent('Authorizations', outcome, operator.OperatorID);
  annotate({ outcome, operatorId: operator.OperatorID, keyId: key.KeyID, scopes: key.Scopes.join(' ') });
  return { ...policy, usageIdentifierKey: key.UsageIdentifierKey };
}

/**
 * The key authorizer. API Gateway caches its answer per Authorization header
 * (AUTHORIZER_CACHE_TTL_SECONDS), so its lines and allow/deny counts are per
 * key and cache period, not per request. Neither ever holds the secret. A
 * refused key is an answer, not a failure: only an error of its own is logged at ERROR.
 */
export const handler = observed<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>(
  {
    message: 'Authorization',
    fields: (event) => ({ method: event.httpMethod, path: event.path, requestId: event.requestContext?.requestId }),
    failed: ({ error }) => error !== undefined && (error as Error)?.message !== UNAUTHORIZED,
  },
  authorize,
);
