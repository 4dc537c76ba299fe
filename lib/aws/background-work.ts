import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
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
 * The work no request starts: the webhook delivery queue (SQS, with a
 * dead-letter queue and an alarm on it) drained by the sender function, and
 * one EventBridge Scheduler schedule per row of shared/api/background.ts
 * (the hold-expiry sweep, the webhook retry sweep). Route functions that
 * queue deliveries get the queue from `webhookQueue`.
 */
export class BackgroundWork extends Construct {
  readonly webhookQueue: Queue;
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
      reason: 'This queue is itself the dead-letter queue of the webhook delivery queue',
    });
    this.webhookQueue = new Queue(this, 'DeliveryQueue', {
      // Six times the sender's timeout, as Lambda advises for queues it drains.
      visibilityTimeout: Duration.seconds(6 * SENDER_TIMEOUT_SECONDS),
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: webhookSender.maxReceiveCount },
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
      new SqsEventSource(this.webhookQueue, { batchSize: webhookSender.batchSize, reportBatchItemFailures: true }),
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
        ...(row.sendsWebhooks ? { webhookQueue: this.webhookQueue } : {}),
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
      alarmDescription: 'Webhook delivery messages the sender failed on repeatedly are waiting in the dead-letter queue',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
