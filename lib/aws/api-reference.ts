import { NestedStack, Validations } from 'aws-cdk-lib';
import { AuthorizationType, AwsIntegration, type Method, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { gatewayProblems } from '../../shared/api/gateway';
import { PROBLEM_CONTENT_TYPE } from '../../shared/api/problem-types';
import { OPENAPI_PATH, openApiDocument } from '../../shared/http/openapi';
import { octoDocument } from '../../shared/octo/openapi';
import { acknowledgeFileDeployment, buildOutputBucket } from './file-deployment';
import { problemTemplate } from './problem-gateway-responses';

/** The document's key in its bucket. */
export const DOCUMENT_KEY = 'openapi.json';

/**
 * The OpenAPI document the API publishes, generated at synth time (so a
 * deployment publishes the document of the code it deploys) into a private
 * bucket of a nested stack of its own, with the role API Gateway reads that
 * one object with. It is not the body of a mock integration: API Gateway
 * caps a mapping template at 300 KB, and the document, about 4 KB a route,
 * is most of that already (`npm run stack-size` prints its size).
 */
export class ApiReference extends NestedStack {
  readonly bucket: Bucket;
  readonly readRole: Role;

  constructor(scope: Construct, id: string, props: { problemBaseUrl: string }) {
    super(scope, id, { description: 'OTA usage service: the OpenAPI document the API publishes at GET /api/v2/openapi.json' });
    // The deployment below deletes its object with the stack, so the bucket is empty when it goes.
    this.bucket = new Bucket(this, 'Bucket', buildOutputBucket);
    new BucketDeployment(this, 'Document', {
      sources: [Source.jsonData(DOCUMENT_KEY, openApiDocument({ octo: octoDocument }, { problemBaseUrl: props.problemBaseUrl }))],
      destinationBucket: this.bucket,
      contentType: 'application/json',
      retainOnDelete: false,
    });
    this.readRole = new Role(this, 'ApiGatewayReadRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway reads the OpenAPI document, and nothing else',
    });
    this.readRole.addToPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.bucket.arnForObjects(DOCUMENT_KEY)] }));
    acknowledgeFileDeployment(this.bucket, { invalidatesDistribution: false });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds one generated document that every deployment rewrites; API Gateway’s access log records every read of it',
    });
  }
}

/**
 * GET /api/v2/openapi.json, without the key authorizer: API Gateway answers
 * with the document read from its bucket, so no function runs; should the
 * read fail, with the gateway's own 500 problem.
 */
export function addApiReferenceMethod(api: RestApi, reference: ApiReference, problemBaseUrl: string): Method {
  const contentType = 'method.response.header.Content-Type';
  const method = api.root.resourceForPath(OPENAPI_PATH).addMethod(
    'GET',
    new AwsIntegration({
      service: 's3',
      integrationHttpMethod: 'GET',
      path: `${reference.bucket.bucketName}/${DOCUMENT_KEY}`,
      options: {
        credentialsRole: reference.readRole,
        integrationResponses: [
          { statusCode: '200', responseParameters: { [contentType]: "'application/json'" } },
          {
            selectionPattern: '[45]\\d{2}',
            statusCode: '500',
            responseParameters: { [contentType]: `'${PROBLEM_CONTENT_TYPE}'` },
            responseTemplates: { 'application/json': problemTemplate(gatewayProblems.DEFAULT_5XX, problemBaseUrl) },
          },
        ],
      },
    }),
    {
      authorizationType: AuthorizationType.NONE,
      methodResponses: ['200', '500'].map((statusCode) => ({ statusCode, responseParameters: { [contentType]: true } })),
      // The API reference is public: no key, so no usage plan either.
      apiKeyRequired: false,
    },
  );
  Validations.of(method).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: 'The API reference is public by design; API Gateway reads it from its bucket, no function runs',
  });
  return method;
}
