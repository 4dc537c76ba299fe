import { Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import type { Resource } from '../support/stack-templates';
import { API_STAGE, AUTHORIZER_CACHE_TTL_SECONDS, THROTTLING, gatewayProblems } from '../../shared/api/gateway';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiReference, DOCUMENT_KEY } from '../../lib/aws/api-reference';
import { problemTemplate } from '../../lib/aws/problem-gateway-responses';
import { OtaUsageStack } from '../../lib/aws/stack';
import { OPENAPI_PATH, openApiDocument } from '../../shared/http/openapi';
import { gatewayErrorCode } from '../../shared/octo/gateway-errors';
import { octoDocument } from '../../shared/octo/openapi';
import { routes } from '../../shared/api/routes';
import { backgroundFunctions } from '../../shared/api/background';
import { tableDesign } from '../../shared/db/table-design';
import { statusTitle } from '../../shared/api/problem-types';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/core/config';
import { StackTemplates } from '../support/stack-templates';
import { testApp } from '../support/test-app';

const app = testApp();

const stack = new OtaUsageStack(app, 'Test');
const all = new StackTemplates(stack);
const template = all.template(stack);

const resourcesOf = (type: string) => template.findResources(type) as Record<string, Resource>;
const onlyOne = (type: string): [string, Resource] => {
  const found = Object.entries(resourcesOf(type));
  expect(found).toHaveLength(1);
  return found[0];
};

/** Full path of every API Gateway resource, rebuilt from ParentId and PathPart. */
function resourcePaths(): Map<string, string> {
  const resources = resourcesOf('AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const requestPath = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const { ParentId, PathPart } = resources[id].Properties;
    const parent = ParentId.Ref ? requestPath(ParentId.Ref) : '';
    const full = `${parent}/${PathPart}`;
    paths.set(id, full);
    return full;
  };
  Object.keys(resources).forEach(requestPath);
  return paths;
}

const methods = () => Object.values(resourcesOf('AWS::ApiGateway::Method')).map((method) => method.Properties);

describe('API', () => {
  test('each route row has a method with its verb on its path, integrated with its own function, which that method alone may invoke', () => {
    const paths = resourcePaths();
    for (const route of routes) {
      const fn = stack.routeFunctions.get(route.id)!;
      const matching = methods().filter((method) => method.HttpMethod === route.method && paths.get(method.ResourceId.Ref) === route.path);
      expect(matching).toHaveLength(1);
      const { Type, IntegrationHttpMethod, Uri } = matching[0].Integration;
      expect([Type, IntegrationHttpMethod]).toEqual(['AWS_PROXY', 'POST']);
      // The function by name (its nested stack's output) in its ARN, in Lambda's invocation path.
      const [partition, region, account] = ['AWS::Partition', 'AWS::Region', 'AWS::AccountId'].map((name) => ({ Ref: name }));
      expect(Uri).toEqual({
        'Fn::Join': [
          '',
          [
            'arn:',
            partition,
            ':apigateway:',
            region,
            ':lambda:path/2015-03-31/functions/arn:',
            partition,
            ':lambda:',
            region,
            ':',
            account,
            ':function:',
            expect.anything(),
            '/invocations',
          ],
        ],
      });
      expect(all.functionNamedIn(Uri)).toEqual({ stack: Stack.of(fn), id: all.logicalId(fn) });

      const permissions = all
        .resources('AWS::Lambda::Permission', [Stack.of(fn)])
        .filter(
          ({ resource }) =>
            JSON.stringify(resource.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [all.logicalId(fn), 'Arn'] }),
        );
      expect(permissions).toHaveLength(1);
      const { Principal, SourceArn } = permissions[0].resource.Properties;
      expect(Principal).toBe('apigateway.amazonaws.com');
      const [, parts] = SourceArn['Fn::Join'];
      expect(parts.slice(-3)).toEqual([':', { Ref: 'RestApiId' }, `/${API_STAGE}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`]);
      expect(all.parameterValue(Stack.of(fn), 'RestApiId')).toEqual({ Ref: onlyOne('AWS::ApiGateway::RestApi')[0] });
    }
  });

  test('nested paths share their resources', () => {
    const paths = [...resourcePaths().values()];
    expect(new Set(paths).size).toBe(paths.length);
  });

  test('every method except OPTIONS and the public OpenAPI document uses the key authorizer', () => {
    const [authorizerId] = onlyOne('AWS::ApiGateway::Authorizer');
    const paths = resourcePaths();
    const isOpenApiDocument = (method: Record<string, any>) =>
      method.HttpMethod === 'GET' && paths.get(method.ResourceId.Ref) === OPENAPI_PATH;
    const guarded = methods().filter((method) => method.HttpMethod !== 'OPTIONS' && !isOpenApiDocument(method));
    expect(methods().filter(isOpenApiDocument)).toHaveLength(1);
    expect(guarded.length).toBeGreaterThanOrEqual(routes.length);
    for (const method of guarded) {
      expect(method.AuthorizationType).toBe('CUSTOM');
      expect(method.AuthorizerId).toEqual({ Ref: authorizerId });
    }
  });

  test('GET /api/v2/openapi.json answers the generated document without authorization, read by API Gateway from its bucket', () => {
    const paths = resourcePaths();
    const [method] = methods().filter((candidate) => paths.get(candidate.ResourceId.Ref) === OPENAPI_PATH);
    expect(method).toMatchObject({ HttpMethod: 'GET', AuthorizationType: 'NONE', ApiKeyRequired: false });
    expect(method.AuthorizerId).toBeUndefined();
    const { Type, IntegrationHttpMethod, Uri, Credentials, IntegrationResponses } = method.Integration;
    expect([Type, IntegrationHttpMethod]).toEqual(['AWS', 'GET']);
    const reference = stack.node.findChild('ApiReference') as ApiReference;
    const referenceTemplate = all.templateOf(reference).toJSON();
    const output = (value: unknown) => {
      const [, name] = JSON.stringify(value).match(/"Outputs\.([^"]+)"/)!;
      return referenceTemplate.Outputs[name].Value;
    };
    // S3's GetObject of the document, by the role that may read that object alone.
    const [, uriParts] = Uri['Fn::Join'];
    expect(uriParts.at(-2)).toEqual(expect.objectContaining({ 'Fn::GetAtt': [expect.any(String), expect.stringMatching(/^Outputs\./)] }));
    expect(uriParts.at(-3)).toMatch(/:s3:path\/$/);
    expect(uriParts.at(-1)).toBe(`/${DOCUMENT_KEY}`);
    expect(output(uriParts.at(-2))).toEqual({ Ref: all.logicalId(reference.bucket) });
    expect(output(Credentials)).toEqual({ 'Fn::GetAtt': [all.logicalId(reference.readRole), 'Arn'] });
    const readPolicies = Object.values(referenceTemplate.Resources as Record<string, Resource>).filter(
      (resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles[0].Ref === all.logicalId(reference.readRole),
    );
    expect(readPolicies.flatMap((policy) => policy.Properties.PolicyDocument.Statement)).toEqual([
      {
        Action: 's3:GetObject',
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [all.logicalId(reference.bucket), 'Arn'] }, `/${DOCUMENT_KEY}`]] },
      },
    ]);
    expect(IntegrationResponses[0]).toEqual({
      StatusCode: '200',
      ResponseParameters: { 'method.response.header.Content-Type': "'application/json'" },
    });
    // A failed read is the gateway's own 500 problem, not S3's error.
    expect(IntegrationResponses[1]).toMatchObject({
      SelectionPattern: '[45]\\d{2}',
      StatusCode: '500',
      ResponseTemplates: { 'application/json': problemTemplate(gatewayProblems.DEFAULT_5XX, DEFAULT_PROBLEM_BASE_URL) },
    });

    // What is deployed to the bucket is the document generated from the route table, as staged for upload.
    const [deployment] = Object.values(referenceTemplate.Resources as Record<string, Resource>).filter(
      (resource) => resource.Type === 'Custom::CDKBucketDeployment',
    );
    expect(deployment.Properties).toMatchObject({ DestinationBucketName: { Ref: all.logicalId(reference.bucket) }, Prune: true });
    const [assetZip] = deployment.Properties.SourceObjectKeys;
    const staged = path.join(app.outdir, `asset.${assetZip.replace(/\.zip$/, '')}`, DOCUMENT_KEY);
    expect(JSON.parse(readFileSync(staged, 'utf8'))).toEqual(
      openApiDocument({ octo: octoDocument }, { problemBaseUrl: DEFAULT_PROBLEM_BASE_URL }),
    );
  });

  test('the authorizer is a cached REQUEST authorizer on the Authorization header, backed by its function', () => {
    const [, authorizer] = onlyOne('AWS::ApiGateway::Authorizer');
    expect(authorizer.Properties).toMatchObject({
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_TTL_SECONDS,
    });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${all.logicalId(stack.authorizerFunction)}","Arn"`);
  });

  test('the stage is throttled as api-settings says', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: API_STAGE,
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: THROTTLING.rateLimit,
          ThrottlingBurstLimit: THROTTLING.burstLimit,
        }),
      ]),
    });
  });

  test.each(Object.entries(gatewayProblems))(
    "gateway response %s is a problem+json that carries OCTo's error and errorMessage too",
    (type, problem) => {
      const found = Object.values(resourcesOf('AWS::ApiGateway::GatewayResponse')).filter(
        (response) => response.Properties.ResponseType === type,
      );
      expect(found).toHaveLength(1);
      const { StatusCode, ResponseParameters, ResponseTemplates } = found[0].Properties;
      expect(StatusCode).toBe(String(problem.status));
      expect(ResponseParameters['gatewayresponse.header.Content-Type']).toBe("'application/problem+json'");
      const body = JSON.parse(ResponseTemplates['application/json'].replace('$context.path', '/v1/some/path'));
      expect(body).toEqual({
        type: `${DEFAULT_PROBLEM_BASE_URL}/${problem.kind}`,
        title: statusTitle(problem.status),
        status: problem.status,
        detail: problem.detail,
        instance: '/v1/some/path',
        // A gateway response is the API's, not a route's: a reseller on /octo reads OCTo's fields, every other client its problem.
        ...(problem.status === 404 ? {} : { error: gatewayErrorCode(problem.status), errorMessage: problem.detail }),
      });
    },
  );

  test("OCTo's codes of the gateway's refusals, none for an unknown route (no OCTo request)", () => {
    expect(Object.fromEntries(Object.entries(gatewayProblems).map(([type, problem]) => [type, gatewayErrorCode(problem.status)]))).toEqual({
      UNAUTHORIZED: 'UNAUTHORIZED',
      ACCESS_DENIED: 'FORBIDDEN',
      MISSING_AUTHENTICATION_TOKEN: undefined,
      THROTTLED: 'TOO_MANY_REQUESTS',
      REQUEST_TOO_LARGE: 'BAD_REQUEST',
      INTEGRATION_TIMEOUT: 'INTERNAL_SERVER_ERROR',
      DEFAULT_4XX: 'BAD_REQUEST',
      DEFAULT_5XX: 'INTERNAL_SERVER_ERROR',
    });
  });

  test('the OCTo routes are methods of the one API, PATCH included, behind the same authorizer', () => {
    const paths = resourcePaths();
    const octo = methods().filter((method) => paths.get(method.ResourceId.Ref)?.startsWith('/octo/'));
    expect(octo.map((method) => `${method.HttpMethod} ${paths.get(method.ResourceId.Ref)}`).sort()).toEqual(
      routes
        .filter((route) => route.face === 'octo')
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    );
    expect(octo.some((method) => method.HttpMethod === 'PATCH')).toBe(true);
  });

  test('the 401 response challenges for a Bearer token', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.WWW-Authenticate': "'Bearer'" }),
    });
  });

  test('a configured problem base URL reaches both the gateway responses and the functions', () => {
    const base = 'https://docs.example.com/problems';
    const customStack = new OtaUsageStack(testApp(), 'Custom', { problemBaseUrl: base });
    const customTemplates = new StackTemplates(customStack);
    const custom = customTemplates.template(customStack);
    custom.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseTemplates: { 'application/json': problemTemplate(gatewayProblems.THROTTLED, base) },
    });
    expect(problemTemplate(gatewayProblems.THROTTLED, base)).toContain(`"${base}/rate-limited"`);
    const functions = customTemplates.resources('AWS::Lambda::Function', customTemplates.serviceStacks);
    expect(functions).toHaveLength(routes.length + 2 + backgroundFunctions.length);
    for (const { resource } of functions) expect(resource.Properties.Environment.Variables.PROBLEM_BASE_URL).toBe(base);
  });
});

describe('table', () => {
  test('is built from the table design, on demand, with point-in-time recovery and TTL', () => {
    const [, table] = onlyOne('AWS::DynamoDB::Table');
    const keyNames = [
      tableDesign.partitionKey,
      tableDesign.sortKey,
      ...tableDesign.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      KeySchema: [
        { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
    });
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining(keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
    );
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      tableDesign.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
  });

  test('survives stack deletion and replacement, and refuses to be deleted by anyone while deletion protection is on', () => {
    const [, table] = onlyOne('AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    // Retain covers CloudFormation; deletion protection refuses a DeleteTable from the console, the CLI or a script too.
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
  });
});

test('outputs the API URL and the table name', () => {
  template.hasOutput('ApiUrl', {});
  template.hasOutput('TableName', { Value: { Ref: onlyOne('AWS::DynamoDB::Table')[0] } });
});
