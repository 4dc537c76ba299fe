import { ANY_KEY, routes } from '../../shared/api/routes';
import { apiArnPrefix, policyAllows, policyFor, routeArn } from '../../shared/http/authorizer-policy';

const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/GET/api/v2/ota/marketplace/products';
const arnFor = (method: string, path: string) => `arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/${method}${path}`;

describe('authorizer policies', () => {
  it('builds route ARNs with wildcards for path parameters', () => {
    expect(apiArnPrefix(methodArn)).toBe('arn:aws:execute-api:eu-west-1:123456789012:abc123/v1');
    expect(routeArn('P', { method: 'GET', path: '/api/v2/ota/core/questions/{ActivityID}' })).toBe('P/GET/api/v2/ota/core/questions/*');
  });

  it("grants every route of the key's scopes, so a cached policy serves later calls", () => {
    const policy = policyFor('key_1', methodArn, ['ota'], routes, {});
    for (const route of routes.filter((r) => r.scope === 'ota')) {
      expect(policyAllows(policy.policyDocument, arnFor(route.method, route.path.replace(/\{[^}]+\}/g, 's_x1')))).toBe(true);
    }
  });

  it('denies routes of other scopes and unknown methods', () => {
    const policy = policyFor('key_1', methodArn, ['usage:read'], routes, {});
    expect(policyAllows(policy.policyDocument, methodArn)).toBe(false);
    const otaPolicy = policyFor('key_1', methodArn, ['ota'], routes, {});
    expect(policyAllows(otaPolicy.policyDocument, arnFor('DELETE', '/api/v2/ota/marketplace/products'))).toBe(false);
  });

  it('grants a key of any scopes the routes every key may call, and nothing more', () => {
    const policy = policyFor('key_1', methodArn, [], routes, {});
    for (const route of routes) {
      expect(policyAllows(policy.policyDocument, arnFor(route.method, route.path.replace(/\{[^}]+\}/g, 'x')))).toBe(
        route.scope === ANY_KEY,
      );
    }
  });

  it('a policy with no granted route is an explicit deny', () => {
    const policy = policyFor(
      'key_1',
      methodArn,
      [],
      routes.filter((route) => route.scope !== ANY_KEY),
      {},
    );
    expect(policy.policyDocument.Statement).toEqual([expect.objectContaining({ Effect: 'Deny' })]);
    expect(policyAllows(policy.policyDocument, methodArn)).toBe(false);
  });
});
