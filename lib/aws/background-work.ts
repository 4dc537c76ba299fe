import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { scheduledFunctions, webhookSender } from '../../shared/api/background';
import type { LogLevel } from '../../shared/core/config';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { ALARM_PERIOD, watch, watchFunctions } from './alarms';
import { ServiceFunction, ServiceRole } from './service-function';

export interface BackgroundWorkProps {
  table: ITable;
  /** Notified by the dead-letter queue's alarm and the functions' crash and throttle alarms. */
  alarmTopic: ITopic;
  problemBaseUrl: string;
  logLevel?: LogLevel;
}

/** The sender waits up to 10 s on each receiver, for a batch in parallel. */
const SENDER_TIMEOUT_SECONDS = 30;
/** A sweep finishes well within its one-minute period. */
const SCHEDULED_TIMEOUT_SECONDS = 50;

/**
 * The work no request starts: the webhook sender, handed queued deliveries
 * by the table's stream (its records the sender fails on end in a
 * dead-letter queue, with an alarm on it), and one EventBridge Scheduler
 * schedule per row of shared/api/background.ts (the hold-expiry sweep, the
 * webhook retry sweep). No function sends anything to a queue: a delivery
 * written in a transaction is all it takes.
 */
export class BackgroundWork extends Construct {
  readonly deadLetterQueue: Queue;
  readonly sender: ServiceFunction;
  readonly scheduled: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, props: BackgroundWorkProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeliveryDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter destination of the webhook sender’s stream mapping',
    });

    // The sender's own role: its stream mapping adds reading the stream and sending to the dead-letter queue.
    const senderRole = new ServiceRole(this, 'SenderRole', {
      table: props.table,
      tableAccess: 'readWrite',
      description: 'The webhook sender: the table, its stream and the deliveries dead-letter queue',
    });
    this.sender = new ServiceFunction(this, 'Sender', {
      entry: webhookSender.entry,
      table: props.table,
      role: senderRole,
      problemBaseUrl: props.problemBaseUrl,
      logLevel: props.logLevel,
      timeoutSeconds: SENDER_TIMEOUT_SECONDS,
    });
    this.sender.addEventSource(
      new DynamoEventSource(props.table, {
        // From the oldest record kept: a mapping created on a table already in use misses no delivery, and records of
        // deliveries already attempted find them no longer queued at that time (shared/webhooks/sender.ts).
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: webhookSender.batchSize,
        parallelizationFactor: webhookSender.parallelizationFactor,
        retryAttempts: webhookSender.retryAttempts,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [FilterCriteria.filter(webhookSender.filter)],
      }),
    );

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
      id: 'webhook-deliveries-dead-letters',
      description: 'Stream records of webhook deliveries the sender failed on repeatedly are waiting in the dead-letter queue',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD }),
      threshold: 1,
    });
    watchFunctions(this, {
      name: 'background',
      functions: [['webhook-sender', this.sender], ...scheduled],
      topic: props.alarmTopic,
    });
  }
}
