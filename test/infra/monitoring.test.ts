import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { METRIC_NAMESPACE, businessMetrics } from '../../shared/core/metrics';
import { backgroundFunctions } from '../../shared/api/background';
import { routes } from '../../shared/api/routes';
import { LATENCY_P99_THRESHOLD_MS, METRICS_PER_ALARM } from '../../lib/aws/alarms';
import { RouteFunctions, routeGroupOf } from '../../lib/aws/route-functions';
import { OtaUsageStack } from '../../lib/aws/stack';
import { API_STAGE } from '../../shared/api/gateway';
import { StackTemplates } from '../support/stack-templates';
import { testApp } from '../support/test-app';

const app = testApp();
const stack = new OtaUsageStack(app, 'Test', { alarmEmail: 'ops@example.com', logLevel: 'DEBUG' });
const all = new StackTemplates(stack);
const template = all.template(stack);
const resources = (type: string) => Object.values(template.findResources(type)) as { Properties: Record<string, any> }[];
const topicId = all.logicalId(stack.monitoring.topic);

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
    const functions = all.resources('AWS::Lambda::Function', all.serviceStacks);
    expect(functions).toHaveLength(routes.length + 2 + backgroundFunctions.length);
    for (const { resource } of functions) {
      expect(resource.Properties).toMatchObject({
        TracingConfig: { Mode: 'Active' },
        Environment: {
          Variables: expect.objectContaining({
            LOG_LEVEL: 'DEBUG',
            POWERTOOLS_SERVICE_NAME: 'ota-usage',
            POWERTOOLS_METRICS_NAMESPACE: METRIC_NAMESPACE,
          }),
        },
      });
    }
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: true,
      MethodSettings: Match.arrayWith([
        Match.objectLike({ MetricsEnabled: true, LoggingLevel: 'ERROR', HttpMethod: '*', ResourcePath: '/*' }),
      ]),
    });
  });
});

describe('alarms', () => {
  const alarms = all.resources('AWS::CloudWatch::Alarm');
  /** The metrics an alarm reads: its own, or those of its metric math. */
  const metricsOf = (alarm: Record<string, any>) =>
    alarm.Metrics
      ? alarm.Metrics.filter((query: any) => query.MetricStat).map((query: any) => ({
          ...query.MetricStat.Metric,
          Stat: query.MetricStat.Stat,
        }))
      : [
          {
            MetricName: alarm.MetricName,
            Namespace: alarm.Namespace,
            Dimensions: alarm.Dimensions,
            Stat: alarm.ExtendedStatistic ?? alarm.Statistic,
          },
        ];
  const dimension = (metric: Record<string, any>, name: string) => metric.Dimensions?.find((d: { Name: string }) => d.Name === name)?.Value;
  const reading = (metricName: string) =>
    alarms.filter(({ resource }) => metricsOf(resource.Properties).some((metric: any) => metric.MetricName === metricName));

  it('sends every alarm, the dead-letter queues’ and the nested stacks’ included, to the one topic, on alarm and when it clears', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const { stack: home, resource } of alarms) {
      const topic = all.referenceIn(home, 'AlarmTopicArn', { Ref: topicId });
      expect(resource.Properties.AlarmActions).toEqual([topic]);
      expect(resource.Properties.OKActions).toEqual([topic]);
      expect(resource.Properties.AlarmName).toMatch(/^Test-[a-z0-9-]+$/);
    }
    // The dead-letter queues of platform events, webhook deliveries, the announcer, the announcement queue and the usage limits' watcher.
    expect(reading('ApproximateNumberOfMessagesVisible')).toHaveLength(5);
  });

  it('reads at most ten metrics in one alarm, CloudWatch’s limit for metric math', () => {
    for (const { resource } of alarms) expect(metricsOf(resource.Properties).length).toBeLessThanOrEqual(METRICS_PER_ALARM);
  });

  it('watches the API’s 5xx rate, and each route’s p99 latency in an alarm on the slowest route of its group', () => {
    expect(reading('5XXError').filter(({ resource }) => metricsOf(resource.Properties)[0].Stat === 'Average')).toHaveLength(1);
    const latency = reading('Latency');
    const watched = latency.flatMap(({ resource }) => metricsOf(resource.Properties));
    expect(watched.map((metric: any) => `${dimension(metric, 'Method')} ${dimension(metric, 'Resource')}`).sort()).toEqual(
      routes.map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const metric of watched) expect(metric.Stat).toBe('p99');
    for (const { stack: home, resource } of latency) {
      expect(resource.Properties.Threshold).toBe(LATENCY_P99_THRESHOLD_MS);
      expect(resource.Properties.Metrics.find((query: any) => query.ReturnData !== false).Expression).toMatch(/^MAX\(\[m0(,m\d+)*\]\)$/);
      // Each alarm watches routes of one group, from that group's stack.
      const routeIds = resource.Properties.Metrics.filter((query: any) => query.MetricStat).map((query: any) => query.Label);
      expect(routeIds.map((routeId: string) => Stack.of(stack.routeFunctions.get(routeId)!))).toEqual(routeIds.map(() => home));
    }
    // Fewer alarms than routes: one per ten routes of a group.
    expect(latency.length).toBeLessThan(routes.length);
  });

  it('watches every function’s crashes and throttles, in alarms on the sum over at most ten functions, and the table’s throttled requests and system errors', () => {
    const functions = all.resources('AWS::Lambda::Function', all.serviceStacks);
    for (const metricName of ['Errors', 'Throttles']) {
      const watched = reading(metricName).flatMap(({ stack: home, resource }) => {
        expect(resource.Properties.Metrics.find((query: any) => query.ReturnData !== false).Expression).toMatch(/^SUM\(\[m0(,m\d+)*\]\)$/);
        expect(resource.Properties.Threshold).toBe(1);
        return metricsOf(resource.Properties).map(
          (metric: any) => `${home.node.path} ${JSON.stringify(dimension(metric, 'FunctionName'))}`,
        );
      });
      // Every function of the service, each once: crashes are not an answer the functions give, so they alarm.
      expect(watched.sort()).toEqual(functions.map(({ stack: home, id }) => `${home.node.path} ${JSON.stringify({ Ref: id })}`).sort());
    }
    const tableExpressions = alarms
      .filter(({ stack: home }) => home === stack)
      .map(({ resource }) => JSON.stringify(resource.Properties.Metrics ?? []));
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
    const quiet = Template.fromStack(new OtaUsageStack(testApp(), 'Quiet'));
    quiet.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('dashboard', () => {
  const body = JSON.stringify(resources('AWS::CloudWatch::Dashboard')[0].Properties.DashboardBody);
  // The body is JSON joined with references (function names, the region): each becomes a placeholder string here.
  const references: unknown[] = [];
  const parts: unknown[] = resources('AWS::CloudWatch::Dashboard')[0].Properties.DashboardBody['Fn::Join'][1];
  const widgets: { properties: { title?: string; metrics?: any[][] } }[] = JSON.parse(
    parts.map((part) => (typeof part === 'string' ? part : `reference-${references.push(part) - 1}`)).join(''),
  ).widgets;
  const graph = (title: string) => {
    const found = widgets.find((widget) => widget.properties.title === title);
    expect(found).toBeDefined();
    return found!.properties.metrics!;
  };

  it('graphs, in the section of its group, each route’s requests, 5xx and 4xx answers and p50 and p99 latency', () => {
    const signals = [
      ['Traffic: requests', 'Count', 'Sum'],
      ['Errors: 5xx answers', '5XXError', 'Sum'],
      ['Errors: 4xx answers', '4XXError', 'Sum'],
      ['Latency: p50 (ms)', 'Latency', 'p50'],
      ['Latency: p99 (ms)', 'Latency', 'p99'],
    ];
    for (const route of routes) {
      for (const [title, metricName, stat] of signals) {
        expect(graph(`${routeGroupOf(route)} routes — ${title}`)).toContainEqual([
          'AWS/ApiGateway',
          metricName,
          'ApiName',
          'ota-usage',
          'Method',
          route.method,
          'Resource',
          route.path,
          'Stage',
          API_STAGE,
          { label: route.id, stat },
        ]);
      }
    }
  });

  it('graphs every function’s concurrency, throttles and crashes, a route’s function in its group’s section', () => {
    const functionOf = (metric: any[]) => all.functionNamedIn(references[Number(String(metric[3]).replace('reference-', ''))]);
    const routeless = all.serviceStacks.filter((candidate) => !(candidate instanceof RouteFunctions));
    const named = ({ stack: home, id }: { stack: Stack; id: string }) => `${home.node.path} ${id}`;
    expect(all.resources('AWS::Lambda::Function', routeless)).toHaveLength(2 + backgroundFunctions.length);
    for (const [title, metricName] of [
      ['Saturation: concurrent executions', 'ConcurrentExecutions'],
      ['Saturation: Lambda throttles', 'Throttles'],
      ['Crashes and timeouts', 'Errors'],
    ]) {
      for (const routeStack of stack.routeStacks) {
        const graphed = graph(`${routeStack.group} routes — ${title}`);
        expect(graphed.map((metric) => metric[1])).toEqual(graphed.map(() => metricName));
        expect(graphed.map(functionOf)).toEqual(
          [...routeStack.functions.values()].map((fn) => ({ stack: routeStack, id: all.logicalId(fn) })),
        );
      }
      // Every function the stacks that serve no route deploy (the authorizer, the background work's, the platform event recorder), each once.
      const others = graph(`Authorizer, background work and platform events — ${title}`);
      expect(others.map((metric) => named(functionOf(metric))).sort()).toEqual(
        all.resources('AWS::Lambda::Function', routeless).map(named).sort(),
      );
    }
  });

  it('shows every business metric and outcome the functions emit', () => {
    for (const [name, outcomes] of Object.entries(businessMetrics)) {
      for (const outcome of outcomes)
        expect(body).toContain(`\\"${METRIC_NAMESPACE}\\",\\"${name}\\",\\"outcome\\",\\"${outcome}\\",\\"service\\",\\"ota-usage\\"`);
    }
  });
});
