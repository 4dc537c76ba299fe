import { Validations, type Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { firewallOption } from '../../lib/aws/api-firewall';
import { OtaUsageStack } from '../../lib/aws/stack';
import { ADDRESS_RATE_LIMITED, API_STAGE, FIREWALL, OPENAPI_THROTTLING, THROTTLING } from '../../shared/api/gateway';
import { problemTypeUri } from '../../shared/api/problem-types';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/core/config';
import { OPENAPI_PATH } from '../../shared/http/openapi';
import { StackTemplates, type Resource } from '../support/stack-templates';
import { testApp } from '../support/test-app';

/** The front door before any key is read: the public document's own throttle, and a firewall that limits each address. */

const synth = (props: ConstructorParameters<typeof OtaUsageStack>[2] = {}) => {
  const app = testApp();
  const stack = new OtaUsageStack(app, 'Test', props);
  return { app, stack, template: new StackTemplates(stack).template(stack) };
};
const { stack, template } = synth();
const resourcesOf = (type: string) => Object.entries(template.findResources(type) as Record<string, Resource>);

/** Every rule acknowledged anywhere in the stack's tree, by ID. */
const acknowledged = (root: Stack) =>
  root.node
    .findAll()
    .flatMap((construct) => construct.node.metadata.filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
    .flatMap((entry) => Object.keys(entry.data as Record<string, string>))
    .map((key) => key.replace(/^Annotation::/, ''));

describe('the public OpenAPI document', () => {
  test("is throttled on its own, below the stage's limit, so callers without a key cannot use up what partners share", () => {
    const [[, stage]] = resourcesOf('AWS::ApiGateway::Stage');
    expect(stage.Properties.StageName).toBe(API_STAGE);
    // API Gateway names a method's settings by '/' and its resource path with each '/' escaped as '~1'.
    const own = stage.Properties.MethodSettings.find(
      (setting: { ResourcePath: string }) => setting.ResourcePath === `/${OPENAPI_PATH.replaceAll('/', '~1')}`,
    );
    expect(own).toMatchObject({
      HttpMethod: 'GET',
      ThrottlingRateLimit: OPENAPI_THROTTLING.rateLimit,
      ThrottlingBurstLimit: OPENAPI_THROTTLING.burstLimit,
    });
    expect(OPENAPI_THROTTLING.rateLimit).toBeLessThan(THROTTLING.rateLimit / 10);
  });
});

describe('the firewall (AWS WAF)', () => {
  const [[aclId, acl]] = resourcesOf('AWS::WAFv2::WebACL');

  test('is a regional web ACL that lets through what no rule blocks, with metrics and sampled requests', () => {
    expect(acl.Properties).toMatchObject({
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true },
    });
  });

  test("limits every address's requests, and the public document's more tightly, each rule answering 429 with Retry-After", () => {
    const rules = acl.Properties.Rules as Record<string, any>[];
    const rateRules = rules.map((rule) => rule.Statement.RateBasedStatement);
    expect(rateRules).toHaveLength(2);
    for (const rule of rateRules) expect(rule).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: FIREWALL.windowSeconds });
    const [documentRule, everyRequest] = rateRules;
    expect(everyRequest.Limit).toBe(FIREWALL.requestsPerAddress);
    expect(everyRequest.ScopeDownStatement).toBeUndefined();
    expect(documentRule.Limit).toBe(FIREWALL.documentRequestsPerAddress);
    expect(documentRule.ScopeDownStatement.ByteMatchStatement).toMatchObject({
      FieldToMatch: { UriPath: {} },
      PositionalConstraint: 'ENDS_WITH',
      SearchString: OPENAPI_PATH,
    });
    for (const rule of rules) {
      expect(rule.Action.Block.CustomResponse).toEqual({
        ResponseCode: 429,
        CustomResponseBodyKey: 'rate-limited',
        ResponseHeaders: [{ Name: 'Retry-After', Value: ADDRESS_RATE_LIMITED.headers!['Retry-After'] }],
      });
      expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    }
    // The default per address is above what one key may send, so a partner at its own limit is never blocked by it.
    expect(FIREWALL.requestsPerAddress / FIREWALL.windowSeconds).toBeGreaterThan(50);
  });

  test("answers its 429 with the gateway's problem and OCTo's members (WAF cannot fill in the instance)", () => {
    const body = acl.Properties.CustomResponseBodies['rate-limited'];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({
      type: problemTypeUri(DEFAULT_PROBLEM_BASE_URL, 'rate-limited'),
      title: 'Too Many Requests',
      status: 429,
      detail: ADDRESS_RATE_LIMITED.detail,
      error: 'TOO_MANY_REQUESTS',
      errorMessage: ADDRESS_RATE_LIMITED.detail,
    });
  });

  test('is associated with the API stage, which resolves cdk-nag APIG3 rather than acknowledging it', () => {
    const [[, association]] = resourcesOf('AWS::WAFv2::WebACLAssociation');
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const [[stageId]] = resourcesOf('AWS::ApiGateway::Stage');
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`{"Ref":"${stageId}"}`);
    expect(acknowledged(stack)).not.toContain('AwsSolutions-APIG3');
  });

  test('the context options: waf=false turns it off, wafRequestsPerAddress sets its limit, anything else is refused', () => {
    expect(firewallOption(undefined, undefined)).toEqual({});
    expect(firewallOption('true', '12000')).toEqual({ requestsPerAddress: 12_000 });
    expect(firewallOption(false, undefined)).toBe(false);
    expect(firewallOption('false', '12000')).toBe(false);
    expect(() => firewallOption('off', undefined)).toThrow("The context option waf must be true or false, not 'off'");
    for (const bad of ['5', '1e3x', '2.5', '3000000000']) {
      expect(() => firewallOption(undefined, bad)).toThrow(
        `wafRequestsPerAddress must be a whole number of requests from 10 to 2000000000, not '${bad}'`,
      );
    }
    const tuned = synth({ firewall: firewallOption(undefined, '12000') }).template;
    const [acl] = Object.values(tuned.findResources('AWS::WAFv2::WebACL') as Record<string, Resource>);
    expect(acl.Properties.Rules[1].Statement.RateBasedStatement.Limit).toBe(12_000);
  });

  test('turned off, there is no web ACL, and cdk-nag APIG3 is acknowledged with the reason', () => {
    const { app, stack: bare, template: off } = synth({ firewall: false });
    expect(Object.keys(off.findResources('AWS::WAFv2::WebACL'))).toEqual([]);
    expect(Object.keys(off.findResources('AWS::WAFv2::WebACLAssociation'))).toEqual([]);
    expect(acknowledged(bare)).toContain('AwsSolutions-APIG3');
    expect(new AwsSolutionsChecks(app).validateScope(bare).success).toBe(true);
  });
});
