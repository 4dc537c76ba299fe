import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { Route } from '../../shared/api/routes';

/** p99 latency of a route, as API Gateway measures it, above which its group's alarm fires. */
export const LATENCY_P99_THRESHOLD_MS = 2000;
/** Share of the API's answers that may be 5xx before the alarm fires. */
export const SERVER_ERROR_RATE_THRESHOLD = 0.01;
/** CloudWatch's hard limit: one alarm's metric math reads at most ten metrics. */
export const METRICS_PER_ALARM = 10;

export const ALARM_PERIOD = Duration.minutes(5);

/** The API stage whose per-method metrics the alarms and the dashboard read. */
export interface ApiStage {
  apiName: string;
  stage: string;
}

/** A metric of the API stage, of one route's method when given (API Gateway's per-method metrics), else of the whole stage. */
export function apiMetric(api: ApiStage, metricName: string, route: Route | undefined, statistic: string): Metric {
  return new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: {
      ApiName: api.apiName,
      Stage: api.stage,
      ...(route ? { Method: route.method, Resource: route.path } : {}),
    },
    statistic,
    period: ALARM_PERIOD,
    label: route?.id,
  });
}

/** Notifies the topic when the alarm fires and when it clears. */
export function notify(alarm: Alarm, topic: ITopic): Alarm {
  const action = new SnsAction(topic);
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}

export interface WatchedAlarm {
  /** Construct ID, and the end of the alarm's name. */
  id: string;
  description: string;
  metric: IMetric;
  threshold: number;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
}

/**
 * An alarm named for the service and what it watches (the name is what the
 * notification's subject shows), at or above its threshold, silent without
 * data, notifying the topic.
 */
export function watch(scope: Construct, topic: ITopic, props: WatchedAlarm): Alarm {
  return notify(
    new Alarm(scope, props.id, {
      alarmName: `${serviceStackName(scope)}-${props.id}`,
      alarmDescription: props.description,
      metric: props.metric,
      threshold: props.threshold,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      datapointsToAlarm: props.datapointsToAlarm,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }),
    topic,
  );
}

/** The top-level stack's name, which every nested stack's alarms carry too: unique in the account and region. */
function serviceStackName(scope: Construct): string {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack.stackName;
}

/** Groups of at most METRICS_PER_ALARM, in order, each with its one-based number. */
function inAlarmSizedGroups<T>(items: readonly T[]): [T[], number][] {
  const groups: [T[], number][] = [];
  for (let start = 0; start < items.length; start += METRICS_PER_ALARM) {
    groups.push([items.slice(start, start + METRICS_PER_ALARM), groups.length + 1]);
  }
  return groups;
}

/** One metric-math value over a group of metrics: their `MAX` or `SUM` at each period. */
function across(fn: 'MAX' | 'SUM', metrics: IMetric[], label: string): MathExpression {
  const usingMetrics = Object.fromEntries(metrics.map((metric, index) => [`m${index}`, metric]));
  return new MathExpression({ expression: `${fn}([${Object.keys(usingMetrics).join(',')}])`, usingMetrics, period: ALARM_PERIOD, label });
}

export interface WatchedFunctions {
  /** What the functions are, in alarm names and descriptions: `ota-routes`, `background`. */
  name: string;
  /** The functions by the name a reader knows them by (a route ID). */
  functions: readonly [string, IFunction][];
  topic: ITopic;
}

/**
 * Crashes and throttles of a group of functions: one alarm of each per ten
 * functions, on the sum of theirs, instead of two alarms per function. The
 * description names the functions; the dashboard shows each one's graph.
 */
export function watchFunctions(scope: Construct, { name, functions, topic }: WatchedFunctions): Alarm[] {
  return inAlarmSizedGroups(functions).flatMap(([group, number]) => {
    const names = group.map(([functionName]) => functionName).join(', ');
    return [
      watch(scope, topic, {
        // Handled failures are answers (problem+json), so Errors counts crashes and timeouts only.
        id: `${name}-crashes-${number}`,
        description: `A function crashed or timed out: one of ${names}`,
        metric: across(
          'SUM',
          group.map(([, fn]) => fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum' })),
          'Crashes and timeouts',
        ),
        threshold: 1,
      }),
      watch(scope, topic, {
        id: `${name}-throttles-${number}`,
        description: `Lambda throttled a function: one of ${names}`,
        metric: across(
          'SUM',
          group.map(([, fn]) => fn.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum' })),
          'Throttles',
        ),
        threshold: 1,
      }),
    ];
  });
}

export interface WatchedRoutes {
  name: string;
  routes: readonly Route[];
  api: ApiStage;
  topic: ITopic;
}

/** p99 latency of a group of routes: one alarm per ten routes, on the slowest route's p99. */
export function watchLatency(scope: Construct, { name, routes, api, topic }: WatchedRoutes): Alarm[] {
  return inAlarmSizedGroups(routes).map(([group, number]) =>
    watch(scope, topic, {
      id: `${name}-p99-latency-${number}`,
      description: `p99 latency at or above ${LATENCY_P99_THRESHOLD_MS} ms over three 5-minute periods on one of ${group.map((route) => route.id).join(', ')}`,
      metric: across(
        'MAX',
        group.map((route) => apiMetric(api, 'Latency', route, 'p99')),
        'Slowest route p99 (ms)',
      ),
      threshold: LATENCY_P99_THRESHOLD_MS,
      evaluationPeriods: 3,
    }),
  );
}
