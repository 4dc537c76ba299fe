import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, Metric, TextWidget, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, OUTCOME_DIMENSION, SERVICE_NAME, businessMetrics, type BusinessMetric } from '../../shared/core/metrics';
import { API_STAGE } from '../../shared/api/gateway';
import type { Route } from '../../shared/api/routes';
import { ALARM_PERIOD, SERVER_ERROR_RATE_THRESHOLD, apiMetric, watch, watchFunctions, type ApiStage } from './alarms';

export interface MonitoringProps {
  api: RestApi;
  table: Table;
  authorizer: IFunction;
  /** Subscribed to the alarm topic when given (`cdk deploy -c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
}

/** A part of the dashboard: a group of routes and their functions, or functions that serve no route. */
export interface DashboardSection {
  title: string;
  routes: readonly Route[];
  /** The functions by the name a reader knows them by (a route ID). */
  functions: readonly [string, IFunction][];
}

const TABLE_OPERATIONS = [Operation.GET_ITEM, Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.QUERY, Operation.TRANSACT_WRITE_ITEMS];

/**
 * What a platform team watches, from the top-level stack: the one SNS topic
 * every alarm of the service notifies (the nested stacks' alarms included),
 * the alarms on the API as a whole (5xx rate), the table (throttled requests,
 * system errors) and the authorizer; and the one dashboard, with a section per
 * group of routes (each route's traffic, errors and latency, each function's
 * saturation and crashes), the functions that serve no route, and the
 * business metrics.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly apiStage: ApiStage;
  private readonly api: RestApi;
  private readonly table: Table;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, table } = props;
    this.api = api;
    this.table = table;
    // The stage's name as written, not a reference to the stage: the nested stacks' alarms read it, and the stage depends on them.
    this.apiStage = { apiName: api.restApiName, stage: API_STAGE };

    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'OTA usage service alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key, and the messages carry alarm states only, no customer data',
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    watch(this, this.topic, {
      id: 'api-5xx-rate',
      description: `More than ${SERVER_ERROR_RATE_THRESHOLD * 100}% of the API's answers were 5xx over two of three 5-minute periods`,
      metric: apiMetric(this.apiStage, '5XXError', undefined, 'Average'),
      threshold: SERVER_ERROR_RATE_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });
    watch(this, this.topic, {
      id: 'table-throttles',
      description: 'DynamoDB throttled requests of the service table',
      metric: table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: ALARM_PERIOD }),
      threshold: 1,
    });
    watch(this, this.topic, {
      id: 'table-system-errors',
      description: 'DynamoDB answered requests of the service table with system errors',
      metric: table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: ALARM_PERIOD }),
      threshold: 1,
    });
    watchFunctions(this, { name: 'authorizer', functions: [['authorizer', props.authorizer]], topic: this.topic });

    new CfnOutput(scope, 'AlarmTopicArn', { value: this.topic.topicArn, description: 'SNS topic every alarm notifies' });
  }

  /** The dashboard `<api>-<stage>`: the API and the table, then each section, then the business metrics. */
  addDashboard(sections: readonly DashboardSection[]): Dashboard {
    const { stage } = this.apiStage;
    const graph = (title: string, left: IMetric[], width = 6) => new GraphWidget({ title, left, width, height: 6 });
    const perRoute = (routes: readonly Route[], metricName: string, statistic: string) =>
      routes.map((route) => apiMetric(this.apiStage, metricName, route, statistic));
    const perFunction = (functions: DashboardSection['functions'], metric: (fn: IFunction, label: string) => IMetric) =>
      functions.map(([label, fn]) => metric(fn, label));

    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${this.api.restApiName}-${stage}`,
      defaultInterval: Duration.hours(6),
    });
    dashboard.addWidgets(new TextWidget({ markdown: `# The API (stage ${stage}) and the table`, width: 24, height: 1 }));
    dashboard.addWidgets(
      graph('API: requests', [apiMetric(this.apiStage, 'Count', undefined, 'Sum')]),
      graph('API: share of 5xx answers', [apiMetric(this.apiStage, '5XXError', undefined, 'Average')]),
      graph('API: p99 latency (ms)', [apiMetric(this.apiStage, 'Latency', undefined, 'p99')]),
      graph('Saturation: DynamoDB throttled requests', [
        this.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: ALARM_PERIOD }),
      ]),
    );
    for (const { title, routes, functions } of sections) {
      dashboard.addWidgets(new TextWidget({ markdown: `## ${title}`, width: 24, height: 1 }));
      if (routes.length > 0) {
        dashboard.addWidgets(
          graph(`${title} — Traffic: requests`, perRoute(routes, 'Count', 'Sum')),
          graph(`${title} — Errors: 5xx answers`, perRoute(routes, '5XXError', 'Sum')),
          graph(`${title} — Errors: 4xx answers`, perRoute(routes, '4XXError', 'Sum')),
          graph(`${title} — Latency: p50 (ms)`, perRoute(routes, 'Latency', 'p50')),
        );
      }
      dashboard.addWidgets(
        ...(routes.length > 0 ? [graph(`${title} — Latency: p99 (ms)`, perRoute(routes, 'Latency', 'p99'))] : []),
        graph(
          `${title} — Saturation: concurrent executions`,
          perFunction(functions, (fn, label) => fn.metric('ConcurrentExecutions', { statistic: 'Maximum', period: ALARM_PERIOD, label })),
        ),
        graph(
          `${title} — Saturation: Lambda throttles`,
          perFunction(functions, (fn, label) => fn.metricThrottles({ period: ALARM_PERIOD, label })),
        ),
        graph(
          `${title} — Crashes and timeouts`,
          perFunction(functions, (fn, label) => fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum', label })),
        ),
      );
    }
    dashboard.addWidgets(new TextWidget({ markdown: `# Business (namespace ${METRIC_NAMESPACE})`, width: 24, height: 1 }));
    dashboard.addWidgets(
      ...(Object.entries(businessMetrics) as [BusinessMetric, readonly string[]][]).map(([name, outcomes]) =>
        graph(
          name,
          outcomes.map((outcome) => businessMetric(name, outcome)),
        ),
      ),
    );
    return dashboard;
  }
}

const businessMetric = (metricName: BusinessMetric, outcome: string) =>
  new Metric({
    namespace: METRIC_NAMESPACE,
    metricName,
    dimensionsMap: { service: SERVICE_NAME, [OUTCOME_DIMENSION]: outcome },
    statistic: 'Sum',
    period: ALARM_PERIOD,
    label: outcome,
  });
