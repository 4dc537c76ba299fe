import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { routes } from '../../shared/api/routes';
import { findActiveKey } from '../../shared/accounts/api-keys';
import { policyFor } from '../../shared/http/authorizer-policy';
import { toAuthorizerContext } from '../../shared/http/caller';
import { getOperator } from '../../shared/accounts/operators';

/** API Gateway answers this exact message with its 401 (UNAUTHORIZED) gateway response. */
const unauthorized = () => new Error('Unauthorized');

const bearerToken = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const token = bearerToken(authorization);
  if (!token) throw unauthorized();
  const key = await findActiveKey(token);
  const operator = key && (await getOperator(key.OperatorID));
  if (!key || !operator) throw unauthorized();
  const context = toAuthorizerContext({
    operatorId: operator.OperatorID,
    keyId: key.KeyID,
    scopes: key.Scopes,
    timeZone: operator.TimeZone,
  });
  return policyFor(key.KeyID, event.methodArn, key.Scopes, routes, context);
}
