import type { APIGatewayAuthorizerResult, PolicyDocument } from 'aws-lambda';
import { ANY_KEY, type Route } from '../api/routes';
import type { Scope } from '../accounts/scopes';

/**
 * IAM policies for the REQUEST authorizer. API Gateway caches one policy per
 * key and applies it to every later call, so the policy grants every route
 * the key's scopes allow, not just the method being called.
 */

/** `arn:aws:execute-api:region:account:api/stage/GET/some/path` → `arn:...:api/stage`. */
export function apiArnPrefix(methodArn: string): string {
  return methodArn.split('/').slice(0, 2).join('/');
}

/** The execute-api ARN of a route; path parameters become wildcards. */
export function routeArn(prefix: string, route: Pick<Route, 'method' | 'path'>): string {
  return `${prefix}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`;
}

export function policyFor(
  principalId: string,
  methodArn: string,
  scopes: readonly Scope[],
  routes: readonly Route[],
  context: APIGatewayAuthorizerResult['context'],
): APIGatewayAuthorizerResult {
  const prefix = apiArnPrefix(methodArn);
  const allowed = routes.filter((route) => route.scope === ANY_KEY || scopes.includes(route.scope)).map((route) => routeArn(prefix, route));
  const policyDocument: PolicyDocument = {
    Version: '2012-10-17',
    Statement: allowed.length
      ? [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: allowed }]
      : [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: `${prefix}/*` }],
  };
  return { principalId, policyDocument, context };
}

const wildcardToRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/** Whether a policy lets `methodArn` through, as API Gateway decides it: an explicit Deny wins, else any Allow. */
export function policyAllows(policy: PolicyDocument, methodArn: string): boolean {
  const matching = (effect: string) =>
    policy.Statement.some((statement) => {
      if (statement.Effect !== effect || !('Resource' in statement)) return false;
      const resources = ([] as string[]).concat(statement.Resource ?? []);
      return resources.some((resource) => wildcardToRegExp(resource).test(methodArn));
    });
  return !matching('Deny') && matching('Allow');
}
