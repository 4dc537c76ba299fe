import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { scheduledFunctions, webhookSender } from '../../shared/api/background';
import type { LogLevel } from '../../shared/core/config';
import { ServiceFunction } from './service-function';

export interface BackgroundWorkProps {
  table: ITable;
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
  readonly deadLetterAlarm: Alarm;

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

    this.sender = new ServiceFunction(this, 'Sender', {
      entry: webhookSender.entry,
      table: props.table,
      tableAccess: 'readWrite',
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

    const scheduled = new Map<string, ServiceFunction>();
    for (const row of scheduledFunctions) {
      const fn = new ServiceFunction(this, row.id, {
        entry: row.entry,
        table: props.table,
        tableAccess: 'readWrite',
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

    this.deadLetterAlarm = new Alarm(this, 'DeliveryDeadLetterAlarm', {
      alarmDescription: 'Stream records of webhook deliveries the sender failed on repeatedly are waiting in the dead-letter queue',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
