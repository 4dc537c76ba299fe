import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  announcementQueue,
  changeAnnouncer,
  scheduledFunctions,
  usageLimitWatcher,
  webhookSender,
  type StreamConsumer,
} from '../../shared/api/background';
import type { LogLevel } from '../../shared/core/config';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { ALARM_PERIOD, watch, watchFunctions } from './alarms';
import { ServiceFunction, ServiceRole } from './service-function';
import { useSigningSecretsKey } from './signing-secrets-key';

export interface BackgroundWorkProps {
  table: ITable;
  /** Notified by the dead-letter queue's alarm and the functions' crash and throttle alarms. */
  alarmTopic: ITopic;
  problemBaseUrl: string;
  logLevel?: LogLevel;
  /** The key webhook signing secrets are encrypted with: the sender, and no other function here, may decrypt with it. */
  signingSecretsKeyArn: string;
}

/** The sender waits up to 12 s for a partner's lane and 10 s on its receiver, for a batch in parallel. */
const SENDER_TIMEOUT_SECONDS = 30;
/** The announcer's batch of 100 records, a few writes each; the flush consumer's batch of 10 timeslots. */
const ANNOUNCER_TIMEOUT_SECONDS = 60;
const FLUSHER_TIMEOUT_SECONDS = 30;
/** The watcher decides a batch's periods, a few reads and one transaction each. */
const WATCHER_TIMEOUT_SECONDS = 60;
/** Changes are announced and alerts decided within seconds; a minute behind the stream is propagation gone wrong. */
const STREAM_BEHIND_MS = 60_000;
/** A sweep finishes well within its one-minute period. */
const SCHEDULED_TIMEOUT_SECONDS = 50;

/** An encrypted queue of what a consumer failed on repeatedly, kept 14 days, with its alarm. */
function deadLetterQueue(scope: Construct, ids: { queue: string; alarm: string }, alarmTopic: ITopic, what: string): Queue {
  const queue = new Queue(scope, ids.queue, {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: `This queue is itself the dead-letter destination of ${what}` });
  watch(scope, alarmTopic, {
    id: ids.alarm,
    description: `What ${what} failed on repeatedly is waiting in its dead-letter queue`,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD }),
    threshold: 1,
  });
  return queue;
}

/** A stream consumer's event source mapping, from the oldest record kept, by its row of shared/api/background.ts. */
function streamSource(table: ITable, consumer: StreamConsumer, deadLetters: Queue): DynamoEventSource {
  return new DynamoEventSource(table, {
    // From the oldest record kept: a mapping created on a table already in use misses nothing, and records already
    // worked on change nothing when handed over again (every consumer is idempotent).
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: consumer.batchSize,
    parallelizationFactor: consumer.parallelizationFactor,
    retryAttempts: consumer.retryAttempts,
    bisectBatchOnError: true,
    reportBatchItemFailures: true,
    onFailure: new SqsDlq(deadLetters),
    filters: consumer.filters.map((filter) => FilterCriteria.filter(filter as Record<string, unknown>)),
  });
}

/**
 * The work no request starts: the table stream's consumers (the webhook
 * sender, handed queued deliveries, which it sends to endpoints and to the
 * account's default EventBridge bus; the announcer, handed every change
 * partners hear of; the usage limits' watcher, handed every count of a
 * limit, which decides threshold alerts), the announcement queue (each
 * timeslot's trailing flush, delayed to the end of its coalescing window)
 * and its consumer, and one EventBridge Scheduler schedule per row of
 * shared/api/background.ts (the hold-expiry sweep, the webhook retry sweep,
 * the flush sweep). What a consumer fails on ends in a dead-letter queue of
 * its own, with an alarm on it. No request sends anything anywhere: what it
 * writes is all it takes.
 */
export class BackgroundWork extends Construct {
  readonly deadLetterQueue: Queue;
  readonly sender: ServiceFunction;
  readonly announcer: ServiceFunction;
  readonly announcementQueue: Queue;
  readonly flusher: ServiceFunction;
  readonly watcher: ServiceFunction;
  readonly watcherDeadLetterQueue: Queue;
  readonly scheduled: ReadonlyMap<string, ServiceFunction>;
  /** Every function here by the name its alarms and its dashboard lines give it: one list, so none is watched and not graphed. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, props: BackgroundWorkProps) {
    super(scope, id);
    this.deadLetterQueue = deadLetterQueue(
      this,
      { queue: 'DeliveryDeadLetterQueue', alarm: 'webhook-deliveries-dead-letters' },
      props.alarmTopic,
      'the webhook sender’s stream mapping',
    );

    // The sender's own role: its stream mapping adds reading the stream and sending to the dead-letter queue; it puts
    // usage alerts on the account's default event bus, and on no other; it decrypts the signing secrets it signs with.
    const senderRole = new ServiceRole(this, 'SenderRole', {
      table: props.table,
      tableAccess: 'readWrite',
      description:
        'The webhook sender: the table, its stream, the deliveries dead-letter queue, PutEvents on the default bus, decrypting signing secrets',
    });
    senderRole.addToPolicy(
      new PolicyStatement({
        actions: ['events:PutEvents'],
        resources: [Stack.of(this).formatArn({ service: 'events', resource: 'event-bus', resourceName: 'default' })],
      }),
    );
    this.sender = new ServiceFunction(this, 'Sender', {
      entry: webhookSender.entry,
      table: props.table,
      role: senderRole,
      problemBaseUrl: props.problemBaseUrl,
      logLevel: props.logLevel,
      timeoutSeconds: SENDER_TIMEOUT_SECONDS,
    });
    useSigningSecretsKey(this.sender, senderRole, props.signingSecretsKeyArn, 'decrypt');
    this.sender.addEventSource(streamSource(props.table, webhookSender, this.deadLetterQueue));

    // The announcement queue: a message its consumer fails on maxReceiveCount times is kept beside it.
    const flushDeadLetters = deadLetterQueue(
      this,
      { queue: 'FlushDeadLetterQueue', alarm: 'announcement-flushes-dead-letters' },
      props.alarmTopic,
      'the announcement queue’s consumer',
    );
    this.announcementQueue = new Queue(this, 'AnnouncementQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(announcementQueue.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: flushDeadLetters, maxReceiveCount: announcementQueue.maxReceiveCount },
    });

    // The announcer's own role: the table, its stream (added by the mapping), sending to the announcement queue, its dead-letter queue.
    const announcerDeadLetters = deadLetterQueue(
      this,
      { queue: 'AnnouncerDeadLetterQueue', alarm: 'announcer-dead-letters' },
      props.alarmTopic,
      'the announcer’s stream mapping',
    );
    const announcerRole = new ServiceRole(this, 'AnnouncerRole', {
      table: props.table,
      tableAccess: 'readWrite',
      description: 'The announcer: the table, its stream, sending to the announcement queue and its dead-letter queue',
    });
    this.announcementQueue.grantSendMessages(announcerRole);
    this.announcer = new ServiceFunction(this, 'Announcer', {
      entry: changeAnnouncer.entry,
      table: props.table,
      role: announcerRole,
      problemBaseUrl: props.problemBaseUrl,
      logLevel: props.logLevel,
      timeoutSeconds: ANNOUNCER_TIMEOUT_SECONDS,
    });
    this.announcer.addEnvironment('ANNOUNCEMENT_QUEUE_URL', this.announcementQueue.queueUrl);
    this.announcer.addEventSource(streamSource(props.table, changeAnnouncer, announcerDeadLetters));

    // The flush consumer's own role: the table, and receiving from the announcement queue (added by its event source).
    const flusherRole = new ServiceRole(this, 'FlusherRole', {
      table: props.table,
      tableAccess: 'readWrite',
      description: 'The announcement flushes: the table, and receiving from the announcement queue',
    });
    this.flusher = new ServiceFunction(this, 'Flusher', {
      entry: announcementQueue.consumer.entry,
      table: props.table,
      role: flusherRole,
      problemBaseUrl: props.problemBaseUrl,
      logLevel: props.logLevel,
      timeoutSeconds: FLUSHER_TIMEOUT_SECONDS,
    });
    this.flusher.addEventSource(
      new SqsEventSource(this.announcementQueue, { batchSize: announcementQueue.batchSize, reportBatchItemFailures: true }),
    );

    // The watcher's own role: the table and its stream (added by the mapping), its dead-letter queue.
    this.watcherDeadLetterQueue = deadLetterQueue(
      this,
      { queue: 'WatcherDeadLetterQueue', alarm: 'usage-limit-watcher-dead-letters' },
      props.alarmTopic,
      'the usage limits’ watcher’s stream mapping',
    );
    const watcherRole = new ServiceRole(this, 'WatcherRole', {
      table: props.table,
      tableAccess: 'readWrite',
      description: "The usage limits' watcher: the table, its stream and its dead-letter queue",
    });
    this.watcher = new ServiceFunction(this, 'Watcher', {
      entry: usageLimitWatcher.entry,
      table: props.table,
      role: watcherRole,
      problemBaseUrl: props.problemBaseUrl,
      logLevel: props.logLevel,
      timeoutSeconds: WATCHER_TIMEOUT_SECONDS,
    });
    this.watcher.addEventSource(streamSource(props.table, usageLimitWatcher, this.watcherDeadLetterQueue));

    const sweepRole = new ServiceRole(this, 'ScheduledRole', {
      table: props.table,
      tableAccess: 'readWrite',
      description: 'The scheduled sweeps: the table only',
    });
    const scheduled = new Map<string, ServiceFunction>();
    for (const row of scheduledFunctions) {
      const fn = new ServiceFunction(this, row.id, {
        entry: row.entry,
        table: props.table,
        role: sweepRole,
        problemBaseUrl: props.problemBaseUrl,
        logLevel: props.logLevel,
        timeoutSeconds: SCHEDULED_TIMEOUT_SECONDS,
      });
      new Schedule(this, `Schedule-${row.id}`, {
        description: row.description,
        schedule: ScheduleExpression.rate(Duration.minutes(row.everyMinutes)),
        // A missed run is made up by the next one a minute later, so a late retry is worth nothing.
        target: new LambdaInvoke(fn, { retryAttempts: 0, maxEventAge: Duration.minutes(row.everyMinutes) }),
      });
      // The schedule's role is made at stack level by CDK's LambdaInvoke, so it is acknowledged there, for this function only.
      Validations.of(Stack.of(this)).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(fn.node.defaultChild as CfnElement)}.Arn>:*]`,
        reason: `EventBridge Scheduler may invoke the versions and aliases of ${row.id} and nothing else`,
      });
      scheduled.set(row.id, fn);
    }
    this.scheduled = scheduled;

    watch(this, props.alarmTopic, {
      id: 'announcements-behind',
      description: 'The announcer is more than a minute behind the table stream: partners hear of changes late',
      metric: this.announcer.metric('IteratorAge', { period: ALARM_PERIOD, statistic: 'Maximum' }),
      threshold: STREAM_BEHIND_MS,
    });
    watch(this, props.alarmTopic, {
      id: 'usage-alerts-behind',
      description: "The usage limits' watcher is more than a minute behind the table stream: threshold alerts are late",
      metric: this.watcher.metric('IteratorAge', { period: ALARM_PERIOD, statistic: 'Maximum' }),
      threshold: STREAM_BEHIND_MS,
    });
    this.functions = new Map([
      ['webhook-sender', this.sender],
      ['announcer', this.announcer],
      ['flusher', this.flusher],
      ['usage-limit-watcher', this.watcher],
      ...scheduled,
    ]);
    watchFunctions(this, { name: 'background', functions: [...this.functions], topic: props.alarmTopic });
  }
}
