import { Validations } from 'aws-cdk-lib';
import { AuthorizationType, MockIntegration, PassthroughBehavior, type Method, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { OPENAPI_PATH, openApiDocument } from '../../shared/http/openapi';
import { octoDocument } from '../../shared/octo/openapi';

/**
 * API Gateway renders mapping templates with Velocity, where `$` starts a
 * reference and `#` a directive, and the document is full of both (`$ref`,
 * `#/components/...`). Each is therefore written as a reference to a
 * variable that holds it; single-quoted Velocity strings are not interpolated.
 */
const VELOCITY_PRELUDE = "#set($dollar = '$')#set($hash = '#')";

export const velocityLiteral = (text: string): string =>
  VELOCITY_PRELUDE + text.replace(/[$#]/g, (character) => (character === '$' ? '${dollar}' : '${hash}'));

/**
 * Publishes the OpenAPI document, generated at synth time, at
 * GET /api/v2/openapi.json without the key authorizer: a mock integration
 * answers it, so no function runs.
 */
export function addOpenApiDocumentMethod(api: RestApi, problemBaseUrl: string): Method {
  const document = JSON.stringify(openApiDocument({ octo: octoDocument }, { problemBaseUrl }));
  const method = api.root.resourceForPath(OPENAPI_PATH).addMethod(
    'GET',
    new MockIntegration({
      requestTemplates: { 'application/json': '{"statusCode": 200}' },
      passthroughBehavior: PassthroughBehavior.NEVER,
      integrationResponses: [
        {
          statusCode: '200',
          responseTemplates: { 'application/json': velocityLiteral(document) },
          responseParameters: { 'method.response.header.Content-Type': "'application/json'" },
        },
      ],
    }),
    {
      authorizationType: AuthorizationType.NONE,
      methodResponses: [{ statusCode: '200', responseParameters: { 'method.response.header.Content-Type': true } }],
      // The API reference is public: no key, so no usage plan either.
      apiKeyRequired: false,
    },
  );
  Validations.of(method).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: 'The API reference is public by design; a mock integration answers it, no function runs',
  });
  return method;
}
