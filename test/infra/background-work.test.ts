import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { OtaUsageStack } from '../../lib/aws/stack';
import { scheduledFunctions, webhookSender } from '../../shared/api/background';
import { routes } from '../../shared/api/routes';
import { GSI3 } from '../../shared/db/table-design';

type Resource = { Type: string; Properties: Record<string, any> };

// Bundling is skipped here: `npm run synth` bundles every function with the real esbuild.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new OtaUsageStack(app, 'Test');
const template = Template.fromStack(stack);
const resourcesOf = (type: string) => template.findResources(type) as Record<string, Resource>;
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const { background } = stack;
const queueId = logicalId(background.webhookQueue);
const deadLetterId = logicalId(background.deadLetterQueue);

/** The function logical IDs whose role may send to the delivery queue. */
function sendersToQueue(): Set<string> {
  const roles = new Set<string>();
  for (const policy of Object.values(resourcesOf('AWS::IAM::Policy'))) {
    const sends = policy.Properties.PolicyDocument.Statement.some(
      (statement: { Action: string | string[]; Resource: unknown }) =>
        [statement.Action].flat().includes('sqs:SendMessage') && JSON.stringify(statement.Resource).includes(queueId),
    );
    if (sends) for (const role of policy.Properties.Roles) roles.add(role.Ref);
  }
  const functions = resourcesOf('AWS::Lambda::Function');
  return new Set(Object.keys(functions).filter((id) => roles.has(functions[id].Properties.Role['Fn::GetAtt'][0])));
}

describe('webhook deliveries', () => {
  test('go through an encrypted queue whose repeated failures end in a dead-letter queue, with an alarm on it', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      KmsMasterKeyId: Match.absent(),
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterId, 'Arn'] }, maxReceiveCount: webhookSender.maxReceiveCount },
      VisibilityTimeout: 180,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterId, 'QueueName'] } }],
      Threshold: 1,
    });
  });

  test('are drained by the sender function, in batches, reporting failures per message, with time for a 10-second attempt', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalId(background.sender) },
      BatchSize: webhookSender.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resourcesOf('AWS::Lambda::Function')[logicalId(background.sender)].Properties.Timeout).toBe(30);
  });

  test('are queued only by the functions that make events, which alone know the queue', () => {
    const expected = new Set([
      ...routes.filter((route) => route.sendsWebhooks).map((route) => logicalId(stack.routeFunctions.get(route.id)!)),
      ...scheduledFunctions.filter((row) => row.sendsWebhooks).map((row) => logicalId(background.scheduled.get(row.id)!)),
    ]);
    // The confirmations (marketplace and OCTo), the operator's cancellation and the two sweeps.
    expect(expected.size).toBe(5);
    expect(sendersToQueue()).toEqual(expected);
    const functions = resourcesOf('AWS::Lambda::Function');
    const withQueueUrl = Object.keys(functions).filter((id) => functions[id].Properties.Environment?.Variables?.WEBHOOK_QUEUE_URL);
    expect(new Set(withQueueUrl)).toEqual(expected);
  });
});

describe('schedules', () => {
  test('EventBridge Scheduler runs each scheduled function every minute, without late retries', () => {
    const schedules = Object.values(resourcesOf('AWS::Scheduler::Schedule'));
    expect(schedules).toHaveLength(scheduledFunctions.length);
    for (const row of scheduledFunctions) {
      const fnId = logicalId(background.scheduled.get(row.id)!);
      const schedule = schedules.find((candidate) => JSON.stringify(candidate.Properties.Target.Arn).includes(fnId));
      expect(schedule?.Properties).toMatchObject({
        ScheduleExpression: 'rate(1 minute)',
        State: 'ENABLED',
        Target: { RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 } },
      });
    }
  });

  test('the sweeps have their sparse index of due work (holds by expiry, deliveries by next attempt) to query', () => {
    const [table] = Object.values(resourcesOf('AWS::DynamoDB::Table'));
    expect(table.Properties.GlobalSecondaryIndexes).toContainEqual({
      IndexName: GSI3,
      KeySchema: [
        { AttributeName: 'GSI3PK', KeyType: 'HASH' },
        { AttributeName: 'GSI3SK', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    });
  });
});
