import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { DashboardSite } from '../../lib/aws/dashboard-site';
import { OtaUsageStack } from '../../lib/aws/stack';
import { DASHBOARD_CONTENT_SECURITY_POLICY } from '../../dashboard/site';
import { testApp } from '../support/test-app';

/** Managed policies by their fixed IDs (CloudFront's documentation lists them). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const app = testApp({});
const parent = new Stack(app, 'Parent');
const api = new RestApi(parent, 'Api', { deployOptions: { stageName: 'v9' } });
api.root.addResource('api').addMethod('GET', new MockIntegration());
const site = new DashboardSite(parent, 'Dashboard', { api, stage: api.deploymentStage });
const template = Template.fromStack(site);

const distribution = () => Object.values(template.findResources('AWS::CloudFront::Distribution'))[0].Properties.DistributionConfig;
const originIdOf = (matcher: (origin: any) => boolean) => distribution().Origins.find(matcher).Id as string;

describe('dashboard site', () => {
  test('the bucket is private: public access blocked, TLS required, readable by the distribution only', () => {
    template.resourceCountIs('AWS::S3::Bucket', 1);
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    const policy = JSON.stringify(Object.values(template.findResources('AWS::S3::BucketPolicy'))[0].Properties.PolicyDocument);
    expect(policy).toContain('"aws:SecureTransport":"false"');
    expect(policy).toContain('"Service":"cloudfront.amazonaws.com"');
    expect(policy).toContain('AWS:SourceArn');
    expect(policy).not.toContain('"Principal":"*","Action":"s3:GetObject"');
  });

  test('CloudFront reads the bucket through origin access control, not a public website endpoint', () => {
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    const s3Origin = distribution().Origins.find((origin: any) => origin.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(distribution().DefaultCacheBehavior.TargetOriginId).toBe(s3Origin.Id);
  });

  test('viewers use HTTPS: the site redirects HTTP, serves index.html at the root, with a strict content security policy', () => {
    expect(distribution()).toMatchObject({
      DefaultRootObject: 'index.html',
      DefaultCacheBehavior: { ViewerProtocolPolicy: 'redirect-to-https' },
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: DASHBOARD_CONTENT_SECURITY_POLICY, Override: true },
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31536000 }),
        }),
      },
    });
  });

  test('/api/* goes to the API stage uncached, with every viewer header but Host (so Authorization too) and every method', () => {
    const apiOriginId = originIdOf((origin) => origin.CustomOriginConfig);
    const apiOrigin = distribution().Origins.find((origin: any) => origin.Id === apiOriginId);
    expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    // The origin path is the stage: a parameter the parent stack fills with its Stage resource (stage name v9).
    const stageParameter = apiOrigin.OriginPath['Fn::Join'][1][1].Ref as string;
    expect(apiOrigin.OriginPath).toEqual({ 'Fn::Join': ['', ['/', { Ref: stageParameter }]] });
    const parentTemplate = Template.fromStack(parent);
    const [stageId] = Object.keys(parentTemplate.findResources('AWS::ApiGateway::Stage', { Properties: { StageName: 'v9' } }));
    const nested = Object.values(parentTemplate.findResources('AWS::CloudFormation::Stack'))[0].Properties;
    expect(nested.Parameters[stageParameter]).toEqual({ Ref: stageId });
    expect(JSON.stringify(apiOrigin.DomainName)).toContain('.execute-api.');
    expect(distribution().CacheBehaviors).toEqual([
      expect.objectContaining({
        PathPattern: 'api/*',
        TargetOriginId: apiOriginId,
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      }),
    ]);
  });

  test('the built dashboard is deployed to the bucket and the distribution invalidated', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: Match.anyValue(),
      DistributionId: Match.anyValue(),
      DistributionPaths: ['/*'],
    });
  });

  test('the service stack holds the site as a nested stack of its own and outputs its URL', () => {
    const stack = new OtaUsageStack(testApp(), 'Service');
    const service = Template.fromStack(stack);
    const site = stack.node.findChild('Dashboard') as DashboardSite;
    expect(Object.keys(service.findResources('AWS::CloudFormation::Stack'))).toContain(
      stack.getLogicalId(site.nestedStackResource as CfnElement),
    );
    Template.fromStack(site).resourceCountIs('AWS::CloudFront::Distribution', 1);
    service.hasOutput('DashboardUrl', Match.anyValue());
  });
});
