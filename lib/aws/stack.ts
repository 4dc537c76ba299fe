import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  AwsIntegration,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ApiKeySourceType,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Key } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { tableDesign } from '../../shared/db/table-design';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/core/config';
import { API_STAGE, AUTHORIZER_CACHE_TTL_SECONDS, OPENAPI_THROTTLING, THROTTLING, usagePlanName } from '../../shared/api/gateway';
import { OPENAPI_PATH } from '../../shared/http/openapi';
import { DEFAULT_KEY_LIMITS } from '../../shared/accounts/api-keys';
import type { LogLevel } from '../../shared/core/config';
import { Monitoring } from './monitoring';
import { ApiReference, addApiReferenceMethod } from './api-reference';
import { ApiFirewall } from './api-firewall';
import { addProblemGatewayResponses } from './problem-gateway-responses';
import { DashboardSite } from './dashboard-site';
import { PlatformEvents } from './platform-events';
import { ServiceFunction, ServiceRole } from './service-function';
import { BackgroundWork } from './background-work';
import { RouteFunctions, routeGroups } from './route-functions';
import { ServiceStack } from './service-stack';
import { signingSecretsKey } from './signing-secrets-key';
import { authorizerEntry, routes as routeTable, type Route } from '../../shared/api/routes';

export interface OtaUsageStackProps extends StackProps {
  /** Base of the problem `type` URIs, for the functions and the gateway's own responses alike. */
  problemBaseUrl?: string;
  /** Every function's LOG_LEVEL; INFO when absent. */
  logLevel?: LogLevel;
  /** An address subscribed to the alarm topic. */
  alarmEmail?: string;
  /** The ports partners' webhook URLs may use (WEBHOOK_PORTS of the functions that register and send them); 443 alone when absent. */
  webhookPorts?: readonly number[];
  /** Days personal data is kept after a booking's activity (PERSONAL_DATA_RETENTION_DAYS of the retention sweep); the default when absent. */
  retentionDays?: number;
  /** The firewall in front of the stage (lib/aws/api-firewall.ts): on unless false; its per-address limit when given. */
  firewall?: false | { requestsPerAddress?: number };
  /** The route table (shared/api/routes.ts); the stack-size check synthesizes a larger one. */
  routes?: readonly Route[];
}

/** `ota` → `OtaRoutes`: the ID of a group's nested stack. */
const routeStackId = (group: string) => `${group.replace(/(^|-)(\w)/g, (_, __, letter: string) => letter.toUpperCase())}Routes`;

/**
 * The whole service: the table and the KMS key of the webhook signing
 * secrets kept in it, the REST API with its key authorizer, its
 * resources and one method per row of the route table, the alarm topic and
 * the dashboard, in this stack; the functions in nested stacks, one per group
 * of routes (lib/aws/route-functions.ts), one for the background work and one
 * for platform events; the dashboard site in one more. Adding a route is a
 * row in shared/api/routes.ts (and its operation in shared/api/operations/);
 * nothing here names a route or a group.
 */
export class OtaUsageStack extends Stack {
  /** Route functions by route id. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly routeStacks: readonly RouteFunctions[];
  readonly authorizerFunction: ServiceFunction;
  readonly monitoring: Monitoring;
  readonly background: BackgroundWork;
  readonly platformEvents: PlatformEvents;
  readonly table: Table;
  readonly signingSecretsKey: Key;

  constructor(scope: Construct, id: string, props: OtaUsageStackProps = {}) {
    super(scope, id, props);
    const problemBaseUrl = props.problemBaseUrl ?? DEFAULT_PROBLEM_BASE_URL;
    const routes = props.routes ?? routeTable;

    const table = (this.table = new Table(this, 'Table', {
      partitionKey: { name: tableDesign.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDesign.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDesign.timeToLiveAttribute,
      stream: StreamViewType[tableDesign.streamViewType],
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // Bookings and usage records outlive any one deployment; deleting the stack must not delete them,
      // and deletion protection refuses a DeleteTable from anywhere else (the console, the CLI, a script) until it is turned off.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    }));
    for (const index of tableDesign.globalSecondaryIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    // Webhook signing secrets are kept in the table encrypted with this key; the sender alone may decrypt them.
    const signingSecrets = (this.signingSecretsKey = signingSecretsKey(this));

    const { logLevel } = props;
    this.authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: authorizerEntry,
      table,
      role: new ServiceRole(this, 'AuthorizerRole', {
        table,
        tableAccess: 'read',
        description: 'The key authorizer: reads keys and operators',
      }),
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
        // The public document needs no key, so no usage plan bounds it: it has a throttle of its own.
        methodOptions: {
          [`${OPENAPI_PATH}/GET`]: {
            throttlingRateLimit: OPENAPI_THROTTLING.rateLimit,
            throttlingBurstLimit: OPENAPI_THROTTLING.burstLimit,
          },
        },
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
      ['AwsSolutions-COG4', 'Partners and clients authenticate with API keys through the REQUEST authorizer, not with Cognito user pools'],
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'The account’s API Gateway logging role: AWS’s managed policy is the documented way to grant it',
      ],
    ];
    if (props.firewall === false) {
      acknowledged.push([
        'AwsSolutions-APIG3',
        'The firewall was turned off for this deployment (-c waf=false): per-key usage plans and the stage throttle bound every caller',
      ]);
    } else {
      new ApiFirewall(this, 'Firewall', { stage: api.deploymentStage, problemBaseUrl, ...props.firewall });
    }
    for (const [id, reason] of acknowledged) Validations.of(api).acknowledge({ id, reason });
    addProblemGatewayResponses(api, problemBaseUrl);
    // The API reference is public: the one method without the key authorizer.
    addApiReferenceMethod(api, new ApiReference(this, 'ApiReference', { problemBaseUrl }), problemBaseUrl);

    // Made before the nested stacks, whose alarms notify its topic.
    this.monitoring = new Monitoring(this, 'Monitoring', { api, table, authorizer: this.authorizerFunction, alarmEmail: props.alarmEmail });
    const shared = { table, alarmTopic: this.monitoring.topic };

    // Hold expiry, webhook deliveries and their retries, announcements of changes: the work no request waits on.
    const backgroundStack = new ServiceStack(this, 'Background', {
      ...shared,
      readsStream: true,
      signingSecretsKeyArn: signingSecrets.keyArn,
      description:
        'OTA usage service: the work no request waits on (webhook sender and announcer on the table stream, the announcement queue, scheduled sweeps)',
    });
    this.background = new BackgroundWork(backgroundStack, 'Work', {
      table: backgroundStack.table,
      alarmTopic: backgroundStack.alarmTopic,
      signingSecretsKeyArn: backgroundStack.signingSecretsKeyArn as string,
      problemBaseUrl,
      logLevel,
    });
    if (props.retentionDays !== undefined) {
      this.background.scheduled.get('anonymise-bookings')?.addEnvironment('PERSONAL_DATA_RETENTION_DAYS', String(props.retentionDays));
    }

    // Built-in meters: the platform's EventBridge events, recorded by the same usage code as the API.
    const platformEventsStack = new ServiceStack(this, 'PlatformEvents', {
      ...shared,
      description: 'OTA usage service: platform events recorded as built-in meter entries (EventBridge rules, recorder, dead letters)',
    });
    this.platformEvents = new PlatformEvents(platformEventsStack, 'PlatformEvents', {
      table: platformEventsStack.table,
      alarmTopic: platformEventsStack.alarmTopic,
      problemBaseUrl,
      logLevel,
    });

    // The functions of each group of routes in a nested stack; the resources and methods here, with the API.
    const invoke = (fn: IFunction) =>
      new AwsIntegration({
        proxy: true,
        service: 'lambda',
        // The function by its name, the one value its stack outputs (the dashboard reads it too).
        path: `2015-03-31/functions/${this.formatArn({ service: 'lambda', resource: 'function', resourceName: fn.functionName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })}/invocations`,
      });
    this.routeStacks = [...routeGroups(routes)].map(([group, rows]) => {
      const routeStack = new RouteFunctions(this, routeStackId(group), {
        ...shared,
        group,
        routes: rows,
        restApiId: api.restApiId,
        api: this.monitoring.apiStage,
        problemBaseUrl,
        logLevel,
        signingSecretsKeyArn: signingSecrets.keyArn,
      });
      // resourceForPath reuses the resources of shared path prefixes, so rows can nest freely.
      for (const route of rows) api.root.resourceForPath(route.path).addMethod(route.method, invoke(routeStack.functions.get(route.id)!));
      return routeStack;
    });
    this.routeFunctions = new Map(this.routeStacks.flatMap((routeStack) => [...routeStack.functions]));
    if (props.webhookPorts) {
      const registersOrSends = ['put-webhook', 'put-usage-webhook', 'octo-create-subscription', 'octo-update-subscription'].map((id) =>
        this.routeFunctions.get(id),
      );
      for (const fn of [...registersOrSends, this.background.sender]) {
        fn?.addEnvironment('WEBHOOK_PORTS', props.webhookPorts.join(','));
      }
    }

    this.monitoring.addDashboard([
      ...this.routeStacks.map((routeStack) => ({
        title: `${routeStack.group} routes`,
        routes: routeStack.routes,
        functions: [...routeStack.functions],
      })),
      {
        title: 'Authorizer, background work and platform events',
        routes: [],
        functions: [
          ['authorizer', this.authorizerFunction],
          ...this.background.functions,
          ['record-platform-event', this.platformEvents.function],
        ],
      },
    ]);

    // The operator dashboard: CloudFront in front of its S3 files and of this API under /api/*.
    new DashboardSite(this, 'Dashboard', { api, stage: api.deploymentStage });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the API stage' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'SigningSecretsKeyArn', {
      value: signingSecrets.keyArn,
      description: 'For the admin CLI: --aws --signing-key (the KMS key of the webhook signing secrets)',
    });
    new CfnOutput(this, 'ApiId', { value: api.restApiId, description: 'For the admin CLI: --aws --api-id' });
    new CfnOutput(this, 'DefaultUsagePlanId', {
      value: defaultPlan.usagePlanId,
      description: 'Usage plan of keys with the default limits',
    });
  }
}
