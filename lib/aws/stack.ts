import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ApiKeySourceType,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { tableDesign } from '../../shared/db/table-design';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/core/config';
import { API_STAGE, AUTHORIZER_CACHE_TTL_SECONDS, THROTTLING, usagePlanName } from '../../shared/api/gateway';
import { DEFAULT_KEY_LIMITS } from '../../shared/accounts/api-keys';
import type { LogLevel } from '../../shared/core/config';
import { Monitoring } from './monitoring';
import { addOpenApiDocumentMethod } from './openapi-document-method';
import { addProblemGatewayResponses } from './problem-gateway-responses';
import { DashboardSite } from './dashboard-site';
import { PlatformEvents } from './platform-events';
import { ServiceFunction } from './service-function';
import { BackgroundWork } from './background-work';
import { authorizerEntry, routes } from '../../shared/api/routes';

export interface OtaUsageStackProps extends StackProps {
  /** Base of the problem `type` URIs, for the functions and the gateway's own responses alike. */
  problemBaseUrl?: string;
  /** Every function's LOG_LEVEL; INFO when absent. */
  logLevel?: LogLevel;
  /** An address subscribed to the alarm topic. */
  alarmEmail?: string;
  /** The ports partners' webhook URLs may use (WEBHOOK_PORTS of the functions that register and send them); 443 alone when absent. */
  webhookPorts?: readonly number[];
}

/**
 * The whole service: one table, one REST API with a key authorizer, and one
 * function per row of the route table. Adding a route is a row in
 * shared/api/routes.ts (and its operation in shared/api/operations.ts);
 * nothing here names a route.
 */
export class OtaUsageStack extends Stack {
  /** Route functions by route id. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly authorizerFunction: ServiceFunction;
  readonly monitoring: Monitoring;
  readonly background: BackgroundWork;
  readonly table: Table;

  constructor(scope: Construct, id: string, props: OtaUsageStackProps = {}) {
    super(scope, id, props);
    const problemBaseUrl = props.problemBaseUrl ?? DEFAULT_PROBLEM_BASE_URL;

    const table = (this.table = new Table(this, 'Table', {
      partitionKey: { name: tableDesign.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDesign.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDesign.timeToLiveAttribute,
      stream: StreamViewType[tableDesign.streamViewType],
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // Bookings and usage records outlive any one deployment; deleting the stack must not delete them.
      removalPolicy: RemovalPolicy.RETAIN,
    }));
    for (const index of tableDesign.globalSecondaryIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    const { logLevel } = props;
    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: authorizerEntry,
      table,
      tableAccess: 'read',
      problemBaseUrl,
      logLevel,
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
        accessLogDestination: new LogGroupLogDestination(new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.ONE_MONTH })),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        // Execution logs of failures, X-Ray traces from the front door, and metrics per method (the dashboard's per-route signals).
        loggingLevel: MethodLoggingLevel.ERROR,
        tracingEnabled: true,
        metricsEnabled: true,
      },
      // The authorizer names each key's API Gateway API key (usageIdentifierKey); its usage plan throttles the key.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Access logging needs the account-wide API Gateway CloudWatch role; it is kept on stack deletion
      // because other APIs in the account may rely on it.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      defaultMethodOptions: { authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true },
    });
    // The plan of keys with the default limits; the admin CLI makes the plans of other limits (lib/aws/gateway-keys.ts).
    const defaultPlan = api.addUsagePlan('DefaultKeyPlan', {
      name: usagePlanName(api.restApiId, API_STAGE, DEFAULT_KEY_LIMITS),
      description: `API keys limited to ${DEFAULT_KEY_LIMITS.rateLimit} requests/s, ${DEFAULT_KEY_LIMITS.burstLimit} at once`,
      throttle: { rateLimit: DEFAULT_KEY_LIMITS.rateLimit, burstLimit: DEFAULT_KEY_LIMITS.burstLimit },
      apiStages: [{ api, stage: api.deploymentStage }],
    });
    const acknowledged: [string, string][] = [
      [
        'AwsSolutions-APIG2',
        'Each function validates its request against the JSON Schemas the OpenAPI document publishes, answering problem+json',
      ],
      [
        'AwsSolutions-APIG3',
        'A WAF web ACL is the platform team’s account-level choice; per-key usage plans and the stage throttle bound every caller',
      ],
      ['AwsSolutions-COG4', 'Partners and clients authenticate with API keys through the REQUEST authorizer, not with Cognito user pools'],
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'The account’s API Gateway logging role: AWS’s managed policy is the documented way to grant it',
      ],
    ];
    for (const [id, reason] of acknowledged) Validations.of(api).acknowledge({ id, reason });
    addProblemGatewayResponses(api, problemBaseUrl);
    // The API reference is public: the one method without the key authorizer.
    addOpenApiDocumentMethod(api, problemBaseUrl);

    // Hold expiry, webhook deliveries and their retries: the work no request waits on.
    this.background = new BackgroundWork(this, 'Background', { table, problemBaseUrl, logLevel });

    const routeFunctions = new Map<string, ServiceFunction>();
    for (const route of routes) {
      const fn = new ServiceFunction(this, route.id, {
        entry: route.entry,
        table,
        tableAccess: route.tableAccess,
        problemBaseUrl,
        logLevel,
      });
      // resourceForPath reuses the resources of shared path prefixes, so rows can nest freely.
      api.root.resourceForPath(route.path).addMethod(route.method, new LambdaIntegration(fn, { allowTestInvoke: false }));
      routeFunctions.set(route.id, fn);
    }
    this.routeFunctions = routeFunctions;

    if (props.webhookPorts) {
      for (const fn of [routeFunctions.get('put-webhook'), this.background.sender]) {
        fn?.addEnvironment('WEBHOOK_PORTS', props.webhookPorts.join(','));
      }
    }

    // Built-in meters: the platform's EventBridge events, recorded by the same usage code as the API.
    const platformEvents = new PlatformEvents(this, 'PlatformEvents', { table, problemBaseUrl, logLevel });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      api,
      table,
      routeFunctions: new Map(routes.map((route) => [route, routeFunctions.get(route.id) as ServiceFunction])),
      otherFunctions: {
        authorizer: this.authorizerFunction,
        'record-platform-event': platformEvents.function,
        'webhook-sender': this.background.sender,
        ...Object.fromEntries(this.background.scheduled),
      },
      alarms: [platformEvents.deadLetterAlarm, this.background.deadLetterAlarm],
      alarmEmail: props.alarmEmail,
    });

    // The operator dashboard: CloudFront in front of its S3 files and of this API under /api/*.
    new DashboardSite(this, 'Dashboard', { api, stage: api.deploymentStage });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the API stage' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'ApiId', { value: api.restApiId, description: 'For the admin CLI: --aws --api-id' });
    new CfnOutput(this, 'DefaultUsagePlanId', {
      value: defaultPlan.usagePlanId,
      description: 'Usage plan of keys with the default limits',
    });
  }
}
