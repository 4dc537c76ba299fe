import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { METRIC_NAMESPACE, businessMetrics } from '../../shared/core/metrics';
import { scheduledFunctions } from '../../shared/api/background';
import { routes } from '../../shared/api/routes';
import { LATENCY_P99_THRESHOLD_MS } from '../../lib/aws/monitoring';
import { OtaUsageStack } from '../../lib/aws/stack';

// Bundling is skipped here: `npm run synth` bundles every function with the real esbuild.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new OtaUsageStack(app, 'Test', { alarmEmail: 'ops@example.com', logLevel: 'DEBUG' });
const template = Template.fromStack(stack);
const resources = (type: string) => Object.values(template.findResources(type)) as { Properties: Record<string, any> }[];
const topicId = stack.getLogicalId(stack.monitoring.topic.node.defaultChild as never);

describe('per-key rate limits', () => {
  it('takes API keys from the authorizer and requires one on every route method, but not on the public reference', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    const methods = resources('AWS::ApiGateway::Method').map((method) => method.Properties);
    expect(methods.filter((method) => method.AuthorizationType === 'CUSTOM')).toHaveLength(routes.length);
    for (const method of methods) expect(method.ApiKeyRequired).toBe(method.AuthorizationType === 'CUSTOM');
  });

  it('has the usage plan of the default limits on the stage, named as the admin CLI finds it', () => {
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: DEFAULT_KEY_LIMITS.rateLimit, BurstLimit: DEFAULT_KEY_LIMITS.burstLimit },
      ApiStages: [Match.objectLike({ Stage: Match.anyValue() })],
      UsagePlanName: {
        'Fn::Join': ['', [{ Ref: Match.anyValue() }, `-v1-rate-${DEFAULT_KEY_LIMITS.rateLimit}-burst-${DEFAULT_KEY_LIMITS.burstLimit}`]],
      },
    });
  });
});

describe('throttled answers', () => {
  it('tell the client to retry after a second, the most API Gateway can say', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      StatusCode: '429',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
  });
});

describe('traces, logs and metrics', () => {
  it('traces every function actively and the API stage, with Powertools settings and the log level from context', () => {
    template.allResourcesProperties('AWS::Lambda::Function', {
      TracingConfig: { Mode: 'Active' },
      Environment: {
        Variables: Match.objectLike({
          LOG_LEVEL: 'DEBUG',
          POWERTOOLS_SERVICE_NAME: 'ota-usage',
          POWERTOOLS_METRICS_NAMESPACE: METRIC_NAMESPACE,
        }),
      },
    });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: true,
      MethodSettings: [Match.objectLike({ MetricsEnabled: true, LoggingLevel: 'ERROR', HttpMethod: '*', ResourcePath: '/*' })],
    });
  });
});

describe('alarms', () => {
  const alarms = resources('AWS::CloudWatch::Alarm').map((alarm) => alarm.Properties);
  /** The one metric of an alarm, whether written as its own properties or as a single labelled metric stat. */
  const metricOf = (alarm: Record<string, any>) => {
    const stat = alarm.Metrics?.length === 1 ? alarm.Metrics[0].MetricStat : undefined;
    return stat
      ? { ...stat.Metric, Stat: stat.Stat }
      : {
          MetricName: alarm.MetricName,
          Namespace: alarm.Namespace,
          Dimensions: alarm.Dimensions,
          Stat: alarm.ExtendedStatistic ?? alarm.Statistic,
        };
  };
  const dimension = (alarm: Record<string, any>, name: string) =>
    metricOf(alarm).Dimensions?.find((d: { Name: string }) => d.Name === name)?.Value;

  it('sends every alarm, the dead-letter queue’s included, to the one topic, on alarm and when it clears', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
    }
    // The dead-letter queues of platform events and of webhook deliveries.
    expect(alarms.filter((alarm) => metricOf(alarm).MetricName === 'ApproximateNumberOfMessagesVisible')).toHaveLength(2);
  });

  it('watches the API’s 5xx rate and each route’s p99 latency', () => {
    expect(alarms.filter((alarm) => metricOf(alarm).MetricName === '5XXError' && metricOf(alarm).Stat === 'Average')).toHaveLength(1);
    const latency = alarms.filter((alarm) => metricOf(alarm).MetricName === 'Latency');
    expect(latency.map((alarm) => `${dimension(alarm, 'Method')} ${dimension(alarm, 'Resource')}`).sort()).toEqual(
      routes.map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const alarm of latency) {
      expect(metricOf(alarm).Stat).toBe('p99');
      expect(alarm.Threshold).toBe(LATENCY_P99_THRESHOLD_MS);
    }
  });

  it('watches every function’s errors and throttles, and the table’s throttled requests and system errors', () => {
    // Routes, the authorizer, the platform-event recorder, the webhook sender and the sweeps.
    const functionCount = routes.length + 3 + scheduledFunctions.length;
    const lambda = alarms.map(metricOf).filter((metric) => metric.Namespace === 'AWS/Lambda');
    expect(lambda.filter((metric) => metric.MetricName === 'Errors')).toHaveLength(functionCount);
    expect(lambda.filter((metric) => metric.MetricName === 'Throttles')).toHaveLength(functionCount);
    const tableExpressions = alarms.filter((alarm) => alarm.Metrics?.length > 1).map((alarm) => JSON.stringify(alarm.Metrics));
    expect(tableExpressions.filter((metrics) => metrics.includes('"ThrottledRequests"'))).toHaveLength(1);
    expect(tableExpressions.filter((metrics) => metrics.includes('"SystemErrors"'))).toHaveLength(1);
  });

  it('outputs the topic ARN and subscribes the address given in context', () => {
    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
    const quiet = Template.fromStack(new OtaUsageStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Quiet'));
    quiet.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('dashboard', () => {
  const body = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0].Properties.DashboardBody);

  it('shows the four golden signals per route', () => {
    for (const title of ['Traffic: requests', 'Errors: 5xx answers', 'Latency: p99 (ms)', 'Saturation: concurrent executions'])
      expect(body).toContain(title);
    for (const route of routes) expect(body).toContain(route.path);
  });

  it('shows every business metric and outcome the functions emit', () => {
    for (const [name, outcomes] of Object.entries(businessMetrics)) {
      for (const outcome of outcomes)
        expect(body).toContain(`\\"${METRIC_NAMESPACE}\\",\\"${name}\\",\\"outcome\\",\\"${outcome}\\",\\"service\\",\\"ota-usage\\"`);
    }
  });
});
