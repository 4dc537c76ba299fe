import { CfnOutput, Duration, NestedStack, Stack, Validations, type NestedStackProps } from 'aws-cdk-lib';
import type { IRestApi, Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { DASHBOARD_CONTENT_SECURITY_POLICY, DASHBOARD_DIST, ensureDashboardBuilt } from '../../dashboard/site';
import { acknowledgeFileDeployment, buildOutputBucket } from './file-deployment';

export interface DashboardSiteProps extends NestedStackProps {
  api: IRestApi;
  /** The API stage CloudFront forwards /api/* to. */
  stage: Stage;
}

/**
 * The operator dashboard on CloudFront: a private S3 bucket (read only by this
 * distribution, through origin access control) for the built files, and the
 * API stage behind /api/*, so the dashboard and the API share one origin and
 * need no CORS.
 *
 * A nested stack of its own: the functions CDK adds to deploy the files and to
 * empty the bucket stay apart from the service's own functions, and the site
 * can be replaced without touching the API.
 */
export class DashboardSite extends NestedStack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id, props);
    ensureDashboardBuilt();

    this.bucket = new Bucket(this, 'Bucket', { ...buildOutputBucket, autoDeleteObjects: true });

    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Operator dashboard: CSP, HSTS, no framing, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DASHBOARD_CONTENT_SECURITY_POLICY, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });

    const apiOrigin = new HttpOrigin(`${props.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}`, {
      originPath: `/${props.stage.stageName}`,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Operator dashboard and API',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        compress: true,
      },
      additionalBehaviors: {
        'api/*': {
          origin: apiOrigin,
          // Refused rather than redirected: a redirected POST would lose its body, and the key was sent in the clear already.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Every viewer header but Host (API Gateway needs its own host name); that includes Authorization,
          // which an origin request policy cannot name on its own.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });

    new BucketDeployment(this, 'Files', {
      sources: [Source.asset(DASHBOARD_DIST)],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });

    this.acknowledgeNagFindings();

    // An output of the parent stack, so that `cdk deploy` prints it beside ApiUrl.
    new CfnOutput(Stack.of(scope), 'DashboardUrl', {
      value: `https://${this.distribution.distributionDomainName}/`,
      description: 'The operator dashboard (and the API under /api/ on the same origin)',
    });
  }

  /** cdk-nag AwsSolutions findings this site accepts, each with its reason. */
  private acknowledgeNagFindings(): void {
    acknowledgeFileDeployment(this.bucket, { invalidatesDistribution: true });
    const acknowledged: [string, string][] = [
      ['AwsSolutions-S1', 'The bucket holds only build output that every deployment rewrites; it is read through CloudFront only'],
      ['AwsSolutions-CFR1', 'Partners and operators work from every country; no region is to be refused'],
      [
        'AwsSolutions-CFR2',
        'A WAF web ACL is the platform team’s account-level choice; the API behind /api/* has per-key usage plans and a stage throttle',
      ],
      [
        'AwsSolutions-CFR3',
        'Every /api/* request is logged by the API stage’s access log; the rest are static files of the dashboard build',
      ],
      [
        'AwsSolutions-CFR4',
        'The default *.cloudfront.net certificate fixes the minimum protocol; a custom domain with TLSv1.2_2021 is a deployment choice',
      ],
    ];
    for (const [id, reason] of acknowledged) Validations.of(this).acknowledge({ id, reason });
  }
}
