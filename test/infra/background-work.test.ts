import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { OtaUsageStack } from '../../lib/aws/stack';
import { scheduledFunctions, webhookSender } from '../../shared/api/background';
import { GSI3 } from '../../shared/db/table-design';

type Resource = { Type: string; Properties: Record<string, any> };

// Bundling is skipped here: `npm run synth` bundles every function with the real esbuild.
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new OtaUsageStack(app, 'Test');
const template = Template.fromStack(stack);
const resourcesOf = (type: string) => template.findResources(type) as Record<string, Resource>;
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const { background } = stack;
const deadLetterId = logicalId(background.deadLetterQueue);
const tableId = logicalId(stack.table);

/** The function logical IDs whose role may send to an SQS queue. */
function sendersToQueues(): Set<string> {
  const roles = new Set<string>();
  for (const policy of Object.values(resourcesOf('AWS::IAM::Policy'))) {
    const sends = policy.Properties.PolicyDocument.Statement.some((statement: { Action: string | string[] }) =>
      [statement.Action].flat().includes('sqs:SendMessage'),
    );
    if (sends) for (const role of policy.Properties.Roles) roles.add(role.Ref);
  }
  const functions = resourcesOf('AWS::Lambda::Function');
  return new Set(Object.keys(functions).filter((id) => roles.has(functions[id].Properties.Role['Fn::GetAtt'][0])));
}

describe('webhook deliveries', () => {
  test('the table streams every written item whole, for the sender to read queued deliveries from', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  test('the sender is handed, from the oldest record on, only the writes that queue an attempt, in parallel lanes, reporting failures per record', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      FunctionName: { Ref: logicalId(background.sender) },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: webhookSender.batchSize,
      ParallelizationFactor: webhookSender.parallelizationFactor,
      MaximumRetryAttempts: webhookSender.retryAttempts,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(webhookSender.filter) }] },
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [deadLetterId, 'Arn'] } } },
    });
    expect(resourcesOf('AWS::Lambda::Function')[logicalId(background.sender)].Properties.Timeout).toBe(30);
  });

  test('records the sender failed on repeatedly end in an encrypted dead-letter queue, with an alarm on it', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { KmsMasterKeyId: Match.absent(), SqsManagedSseEnabled: true });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterId, 'QueueName'] } }],
      Threshold: 1,
    });
  });

  test('no route or sweep sends to a queue: writing a delivery in its transaction is all a change does', () => {
    const changers = [...stack.routeFunctions.values(), ...background.scheduled.values()].map(logicalId);
    expect(changers.filter((id) => sendersToQueues().has(id))).toEqual([]);
    // The sender's role reaches the dead-letter queue, for its mapping's failure records.
    expect(sendersToQueues()).toContain(logicalId(background.sender));
    const functions = resourcesOf('AWS::Lambda::Function');
    expect(Object.keys(functions).filter((id) => functions[id].Properties.Environment?.Variables?.WEBHOOK_QUEUE_URL)).toEqual([]);
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

describe('webhook ports', () => {
  const portsOf = (built: OtaUsageStack) => {
    const functions = Template.fromStack(built).findResources('AWS::Lambda::Function') as Record<string, Resource>;
    return Object.fromEntries(
      Object.entries(functions)
        .filter(([, fn]) => fn.Properties.Environment?.Variables?.WEBHOOK_PORTS !== undefined)
        .map(([id, fn]) => [id, fn.Properties.Environment.Variables.WEBHOOK_PORTS]),
    );
  };

  test('are 443 alone by default: no function is told otherwise', () => {
    expect(portsOf(stack)).toEqual({});
  });

  test('that the deployment configures reach the functions that register webhook URLs and send to them', () => {
    const configured = new OtaUsageStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Ports', { webhookPorts: [443, 8443] });
    const id = (construct: { node: { defaultChild?: unknown } }) => configured.getLogicalId(construct.node.defaultChild as CfnElement);
    expect(portsOf(configured)).toEqual({
      [id(configured.routeFunctions.get('put-webhook')!)]: '443,8443',
      [id(configured.background.sender)]: '443,8443',
    });
  });
});
