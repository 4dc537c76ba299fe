import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, OUTCOME_DIMENSION, SERVICE_NAME, businessMetrics, type BusinessMetric } from '../../shared/core/metrics';
import type { Route } from '../../shared/api/routes';

/** p99 latency of a route, as API Gateway measures it, above which its alarm fires. */
export const LATENCY_P99_THRESHOLD_MS = 2000;
/** Share of the API's answers that may be 5xx before the alarm fires. */
export const SERVER_ERROR_RATE_THRESHOLD = 0.01;

const PERIOD = Duration.minutes(5);

export interface MonitoringProps {
  api: RestApi;
  table: Table;
  /** Route functions by route. */
  routeFunctions: ReadonlyMap<Route, IFunction>;
  /** Functions that serve no route (the authorizer, the platform-event recorder), by name. */
  otherFunctions: Record<string, IFunction>;
  /** Alarms made elsewhere (the dead-letter queue's) that notify the same topic. */
  alarms: Alarm[];
  /** Subscribed to the alarm topic when given (`cdk deploy -c alarmEmail=ops@example.com`). */
  alarmEmail?: string;
}

/**
 * What a platform team watches: alarms on the API (5xx rate, p99 latency per
 * route), the functions (errors, throttles), the table (throttled requests,
 * system errors) and the dead-letter queue, all notifying one SNS topic; and
 * one dashboard with the four golden signals per route and the business metrics.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, table } = props;
    const stage = api.deploymentStage.stageName;

    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'OTA usage service alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key, and the messages carry alarm states only, no customer data',
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const apiMetric = (metricName: string, route: Route | undefined, statistic: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: {
          ApiName: api.restApiName,
          Stage: stage,
          ...(route ? { Method: route.method, Resource: route.path } : {}),
        },
        statistic,
        period: PERIOD,
        label: route?.id,
      });
    const alarm = (
      name: string,
      description: string,
      metric: IMetric,
      threshold: number,
      periods: { evaluationPeriods: number; datapointsToAlarm?: number } = { evaluationPeriods: 1 },
    ) => {
      const created = new Alarm(this, name, {
        alarmDescription: description,
        metric,
        threshold,
        ...periods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    alarm(
      'ServerErrorRate',
      `More than ${SERVER_ERROR_RATE_THRESHOLD * 100}% of the API's answers were 5xx over two of three 5-minute periods`,
      apiMetric('5XXError', undefined, 'Average'),
      SERVER_ERROR_RATE_THRESHOLD,
      { evaluationPeriods: 3, datapointsToAlarm: 2 },
    );
    for (const route of props.routeFunctions.keys()) {
      alarm(
        `LatencyP99-${route.id}`,
        `p99 latency of ${route.method} ${route.path} at or above ${LATENCY_P99_THRESHOLD_MS} ms over three 5-minute periods`,
        apiMetric('Latency', route, 'p99'),
        LATENCY_P99_THRESHOLD_MS,
        { evaluationPeriods: 3 },
      );
    }
    const functions: [string, IFunction][] = [
      ...[...props.routeFunctions].map(([route, fn]): [string, IFunction] => [route.id, fn]),
      ...Object.entries(props.otherFunctions),
    ];
    for (const [name, fn] of functions) {
      // Handled failures are answers (problem+json), so Errors counts crashes and timeouts only.
      alarm(`Errors-${name}`, `Function ${name} crashed or timed out`, fn.metricErrors({ period: PERIOD, statistic: 'Sum' }), 1);
      alarm(`Throttles-${name}`, `Function ${name} was throttled by Lambda`, fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }), 1);
    }
    const tableOperations = [
      Operation.GET_ITEM,
      Operation.PUT_ITEM,
      Operation.UPDATE_ITEM,
      Operation.QUERY,
      Operation.TRANSACT_WRITE_ITEMS,
    ];
    alarm(
      'TableThrottles',
      'DynamoDB throttled requests of the service table',
      table.metricThrottledRequestsForOperations({ operations: tableOperations, period: PERIOD }),
      1,
    );
    alarm(
      'TableSystemErrors',
      'DynamoDB answered requests of the service table with system errors',
      table.metricSystemErrorsForOperations({ operations: tableOperations, period: PERIOD }),
      1,
    );
    for (const other of props.alarms) {
      other.addAlarmAction(action);
      other.addOkAction(action);
    }

    const routes = [...props.routeFunctions.keys()];
    const perRoute = (metricName: string, statistic: string) => routes.map((route) => apiMetric(metricName, route, statistic));
    const graph = (title: string, left: IMetric[], width = 12) => new GraphWidget({ title, left, width, height: 6 });
    const businessMetric = (metricName: BusinessMetric, outcome: string) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE_NAME, [OUTCOME_DIMENSION]: outcome },
        statistic: 'Sum',
        period: PERIOD,
        label: outcome,
      });

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${api.restApiName}-${stage}`, defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: '# Golden signals per route (API Gateway, stage ' + stage + ')', width: 24, height: 1 }),
    );
    this.dashboard.addWidgets(
      graph('Traffic: requests', perRoute('Count', 'Sum')),
      graph('Errors: 5xx answers', perRoute('5XXError', 'Sum')),
    );
    this.dashboard.addWidgets(
      graph('Errors: 4xx answers', perRoute('4XXError', 'Sum')),
      graph('Latency: p50 (ms)', perRoute('Latency', 'p50')),
    );
    this.dashboard.addWidgets(
      graph('Latency: p99 (ms)', perRoute('Latency', 'p99')),
      graph(
        'Saturation: concurrent executions',
        functions.map(([name, fn]) => fn.metric('ConcurrentExecutions', { statistic: 'Maximum', period: PERIOD, label: name })),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Saturation: Lambda throttles',
        functions.map(([name, fn]) => fn.metricThrottles({ period: PERIOD, label: name })),
      ),
      graph('Saturation: DynamoDB throttled requests', [
        table.metricThrottledRequestsForOperations({ operations: tableOperations, period: PERIOD }),
      ]),
    );
    this.dashboard.addWidgets(new TextWidget({ markdown: `# Business (namespace ${METRIC_NAMESPACE})`, width: 24, height: 1 }));
    this.dashboard.addWidgets(
      ...(Object.entries(businessMetrics) as [BusinessMetric, readonly string[]][]).map(([name, outcomes]) =>
        graph(
          name,
          outcomes.map((outcome) => businessMetric(name, outcome)),
          6,
        ),
      ),
    );

    new CfnOutput(scope, 'AlarmTopicArn', { value: this.topic.topicArn, description: 'SNS topic every alarm notifies' });
  }
}
