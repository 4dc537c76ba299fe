import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { tableDesign } from '../../shared/db/table-design';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/api/problem-types';
import { API_STAGE, AUTHORIZER_CACHE_TTL_SECONDS, THROTTLING } from '../../shared/api/gateway';
import { addOpenApiDocumentMethod } from './openapi-document-method';
import { addProblemGatewayResponses } from './problem-gateway-responses';
import { DashboardSite } from './dashboard-site';
import { PlatformEvents } from './platform-events';
import { ServiceFunction } from './service-function';
import { authorizerEntry, routes } from '../../shared/api/routes';

export interface OtaUsageStackProps extends StackProps {
  /** Base of the problem `type` URIs, for the functions and the gateway's own responses alike. */
  problemBaseUrl?: string;
}

/**
 * The whole service: one table, one REST API with a key authorizer, and one
 * function per row of the route table. Adding a route is a row in
 * lib/routes.ts; nothing here names a route.
 */
export class OtaUsageStack extends Stack {
  /** Route functions by route id. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly authorizerFunction: ServiceFunction;

  constructor(scope: Construct, id: string, props: OtaUsageStackProps = {}) {
    super(scope, id, props);
    const problemBaseUrl = props.problemBaseUrl ?? DEFAULT_PROBLEM_BASE_URL;

    const table = new Table(this, 'Table', {
      partitionKey: { name: tableDesign.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDesign.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDesign.timeToLiveAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // Bookings and usage records outlive any one deployment; deleting the stack must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDesign.globalSecondaryIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: authorizerEntry,
      table,
      tableAccess: 'read',
      problemBaseUrl,
    });
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: this.authorizerFunction,
      // A request without the header is refused by API Gateway (401) without invoking the function.
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    const api = new RestApi(this, 'Api', {
      restApiName: 'ota-usage',
      description: 'OTA partner booking API and meter usage API',
      endpointTypes: [EndpointType.REGIONAL],
      deployOptions: {
        stageName: API_STAGE,
        throttlingRateLimit: THROTTLING.rateLimit,
        throttlingBurstLimit: THROTTLING.burstLimit,
        accessLogDestination: new LogGroupLogDestination(
          new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH }),
        ),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
      },
      // Access logging needs the account-wide API Gateway CloudWatch role; it is kept on stack deletion
      // because other APIs in the account may rely on it.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      defaultMethodOptions: { authorizer, authorizationType: AuthorizationType.CUSTOM },
    });
    addProblemGatewayResponses(api, problemBaseUrl);
    // The API reference is public: the one method without the key authorizer.
    addOpenApiDocumentMethod(api, problemBaseUrl);

    const routeFunctions = new Map<string, ServiceFunction>();
    for (const route of routes) {
      const fn = new ServiceFunction(this, route.id, {
        entry: route.entry,
        table,
        tableAccess: route.tableAccess,
        problemBaseUrl,
      });
      // resourceForPath reuses the resources of shared path prefixes, so rows can nest freely.
      api.root
        .resourceForPath(route.path)
        .addMethod(route.method, new LambdaIntegration(fn, { allowTestInvoke: false }));
      routeFunctions.set(route.id, fn);
    }
    this.routeFunctions = routeFunctions;

    // Built-in meters: the platform's EventBridge events, recorded by the same usage code as the API.
    new PlatformEvents(this, 'PlatformEvents', { table, problemBaseUrl });

    // The operator dashboard: CloudFront in front of its S3 files and of this API under /api/*.
    new DashboardSite(this, 'Dashboard', { api, stage: api.deploymentStage });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the API stage' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'The single DynamoDB table' });
  }
}
