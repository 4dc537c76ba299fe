import { Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { OtaUsageStack } from '../../lib/aws/stack';
import { announcementQueue, changeAnnouncer, scheduledFunctions, usageLimitWatcher, webhookSender } from '../../shared/api/background';
import { GSI3 } from '../../shared/db/table-design';
import type { ServiceFunction } from '../../lib/aws/service-function';
import { StackTemplates, type Resource } from '../support/stack-templates';
import { testApp } from '../support/test-app';

const app = testApp();
const stack = new OtaUsageStack(app, 'Test');
const all = new StackTemplates(stack);
const { background } = stack;
// The background work is a nested stack of its own; the table is the top-level stack's, passed in by its stream's ARN.
const template = all.templateOf(background);
const resourcesOf = (type: string) => template.findResources(type) as Record<string, Resource>;
const logicalId = (construct: Parameters<StackTemplates['logicalId']>[0]) => all.logicalId(construct);
const deadLetterId = logicalId(background.deadLetterQueue);
const tableId = logicalId(stack.table);

/** Whether the role of a function may send to an SQS queue. */
const sendsToQueues = (fn: { role?: Parameters<StackTemplates['logicalId']>[0] }) => all.actionsOf(fn).includes('sqs:SendMessage');

describe('webhook deliveries', () => {
  test('the table streams every written item whole, for the sender to read queued deliveries from', () => {
    all.template(stack).hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    expect(all.parameterValue(Stack.of(background), 'TableStreamArn')).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
  });

  test('the sender is handed, from the oldest record on, only the writes that queue an attempt, in parallel lanes, reporting failures per record', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { Ref: 'TableStreamArn' },
      FunctionName: { Ref: logicalId(background.sender) },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: webhookSender.batchSize,
      ParallelizationFactor: webhookSender.parallelizationFactor,
      MaximumRetryAttempts: webhookSender.retryAttempts,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: webhookSender.filters.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
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
    const changers = [...stack.routeFunctions.entries(), ...background.scheduled.entries(), ['flusher', background.flusher] as const];
    expect(changers.filter(([, fn]) => sendsToQueues(fn)).map(([name]) => name)).toEqual([]);
    // The sender's role reaches the dead-letter queue, for its mapping's failure records.
    expect(sendsToQueues(background.sender)).toBe(true);
    const functions = all.resources('AWS::Lambda::Function', all.serviceStacks);
    expect(functions.filter(({ resource }) => resource.Properties.Environment?.Variables?.WEBHOOK_QUEUE_URL)).toEqual([]);
  });
});

describe('announcements', () => {
  test('the announcer is handed, from the oldest record on, the writes of timeslots, products and OCTo bookings, in lanes, failures per record', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { Ref: 'TableStreamArn' },
      FunctionName: { Ref: logicalId(background.announcer) },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: changeAnnouncer.batchSize,
      ParallelizationFactor: changeAnnouncer.parallelizationFactor,
      MaximumRetryAttempts: changeAnnouncer.retryAttempts,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: changeAnnouncer.filters.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WorkAnnouncerDeadLetterQueue'), 'Arn'] } } },
    });
    expect(changeAnnouncer.filters.map((filter) => JSON.stringify(filter))).toEqual([
      JSON.stringify({ eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { SK: { S: [{ prefix: 'SLOT#' }] } } } }),
      JSON.stringify({ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { Entity: { S: ['Product'] } } } }),
      JSON.stringify({
        eventName: ['INSERT', 'MODIFY'],
        dynamodb: { NewImage: { Entity: { S: ['Booking'] }, UUID: { S: [{ exists: true }] } } },
      }),
    ]);
  });

  test('trailing flushes wait on an encrypted, TLS-only queue that dead-letters a message received too often, consumed a batch at a time', () => {
    const queueId = logicalId(background.announcementQueue);
    const queue = resourcesOf('AWS::SQS::Queue')[queueId];
    expect(queue.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: announcementQueue.visibilityTimeoutSeconds,
      RedrivePolicy: { maxReceiveCount: announcementQueue.maxReceiveCount },
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalId(background.flusher) },
      BatchSize: announcementQueue.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // The flusher must finish a message before it is received again.
    expect(resourcesOf('AWS::Lambda::Function')[logicalId(background.flusher)].Properties.Timeout).toBeLessThan(
      announcementQueue.visibilityTimeoutSeconds,
    );
  });

  test('only the announcer sends to the announcement queue, told where by its environment', () => {
    const queueId = logicalId(background.announcementQueue);
    expect(sendsToQueues(background.announcer)).toBe(true);
    expect(
      resourcesOf('AWS::Lambda::Function')[logicalId(background.announcer)].Properties.Environment.Variables.ANNOUNCEMENT_QUEUE_URL,
    ).toEqual({
      Ref: queueId,
    });
    const told = all
      .resources('AWS::Lambda::Function', all.serviceStacks)
      .filter(({ resource }) => resource.Properties.Environment?.Variables?.ANNOUNCEMENT_QUEUE_URL !== undefined);
    expect(told.map(({ id }) => id)).toEqual([logicalId(background.announcer)]);
  });

  test('an alarm fires when the announcer falls a minute behind the stream', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(background.announcer) } }],
      Statistic: 'Maximum',
      Threshold: 60_000,
    });
  });
});

describe('usage threshold alerts', () => {
  /** The statements of a function's role that allow `action`. */
  const statementsAllowing = (fn: ServiceFunction, action: string) => {
    const roleId = logicalId(fn.role!);
    return Object.values(resourcesOf('AWS::IAM::Policy'))
      .filter(({ Properties }) => Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
      .flatMap(({ Properties }) => Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((statement) => [statement.Action].flat().includes(action));
  };

  test('the watcher is handed every write of a limit and of its gates, from the oldest record on, its failures kept in a queue of its own', () => {
    const watcherDeadLetters = logicalId(background.watcherDeadLetterQueue);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { Ref: 'TableStreamArn' },
      FunctionName: { Ref: logicalId(background.watcher) },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: usageLimitWatcher.batchSize,
      ParallelizationFactor: usageLimitWatcher.parallelizationFactor,
      MaximumRetryAttempts: usageLimitWatcher.retryAttempts,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: usageLimitWatcher.filters.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [watcherDeadLetters, 'Arn'] } } },
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [watcherDeadLetters, 'QueueName'] } }],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'IteratorAge', Statistic: 'Maximum', Threshold: 60_000 });
  });

  test('the sender alone may put events, on the default event bus and no other', () => {
    expect(statementsAllowing(background.sender, 'events:PutEvents')).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Resource: {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':events:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':event-bus/default'],
          ],
        },
      }),
    ]);
    const others = all
      .resources('AWS::IAM::Policy', all.serviceStacks)
      .filter(({ resource }) =>
        resource.Properties.PolicyDocument.Statement.some((statement: { Action: string | string[] }) =>
          [statement.Action].flat().some((action) => action.startsWith('events:')),
        ),
      );
    expect(others).toHaveLength(1);
    // The watcher only writes deliveries: what sends them is the sender's.
    expect(all.actionsOf(background.watcher).filter((action) => action.startsWith('events:'))).toEqual([]);
  });
});

describe('schedules', () => {
  test('EventBridge Scheduler runs each scheduled function at its period, without late retries', () => {
    const schedules = Object.values(resourcesOf('AWS::Scheduler::Schedule'));
    expect(schedules).toHaveLength(scheduledFunctions.length);
    for (const row of scheduledFunctions) {
      const fnId = logicalId(background.scheduled.get(row.id)!);
      const schedule = schedules.find((candidate) => JSON.stringify(candidate.Properties.Target.Arn).includes(fnId));
      expect(schedule?.Properties).toMatchObject({
        ScheduleExpression: row.everyMinutes === 1 ? 'rate(1 minute)' : `rate(${row.everyMinutes} minutes)`,
        State: 'ENABLED',
        Target: { RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: row.everyMinutes * 60 } },
      });
    }
  });

  test('the sweeps have their sparse index of due work (holds by expiry, deliveries by next attempt) to query', () => {
    const [table] = Object.values(all.template(stack).findResources('AWS::DynamoDB::Table')) as Resource[];
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

describe('retention of personal data', () => {
  const retentionOf = (templates: StackTemplates) =>
    templates
      .resources('AWS::Lambda::Function')
      .map(({ resource }) => resource.Properties.Environment?.Variables?.PERSONAL_DATA_RETENTION_DAYS)
      .filter((days) => days !== undefined);

  test('is the default unless the deployment sets it, and then reaches the retention sweep alone', () => {
    expect(retentionOf(all)).toEqual([]);
    const configured = new OtaUsageStack(testApp(), 'Retention', { retentionDays: 730 });
    const templates = new StackTemplates(configured);
    expect(retentionOf(templates)).toEqual(['730']);
    const sweep = templates.resourceOf(configured.background.scheduled.get('anonymise-bookings')!);
    expect(sweep.Properties.Environment.Variables.PERSONAL_DATA_RETENTION_DAYS).toBe('730');
  });
});

describe('webhook ports', () => {
  /** Every function told WEBHOOK_PORTS, in the root and nested stacks, by its stack and logical ID. */
  const portsOf = (templates: StackTemplates) =>
    Object.fromEntries(
      templates
        .resources('AWS::Lambda::Function')
        .filter(({ resource }) => resource.Properties.Environment?.Variables?.WEBHOOK_PORTS !== undefined)
        .map(({ stack, id, resource }) => [`${stack.node.id}/${id}`, resource.Properties.Environment.Variables.WEBHOOK_PORTS]),
    );

  test('are 443 alone by default: no function is told otherwise', () => {
    expect(portsOf(all)).toEqual({});
  });

  test('that the deployment configures reach the functions that register webhook URLs and send to them', () => {
    const configured = new OtaUsageStack(testApp(), 'Ports', { webhookPorts: [443, 8443] });
    const templates = new StackTemplates(configured);
    const named = (fn: ServiceFunction) => `${Stack.of(fn).node.id}/${templates.logicalId(fn)}`;
    expect(portsOf(templates)).toEqual({
      [named(configured.routeFunctions.get('put-webhook')!)]: '443,8443',
      [named(configured.routeFunctions.get('put-usage-webhook')!)]: '443,8443',
      [named(configured.routeFunctions.get('octo-create-subscription')!)]: '443,8443',
      [named(configured.routeFunctions.get('octo-update-subscription')!)]: '443,8443',
      [named(configured.background.sender)]: '443,8443',
    });
  });
});
