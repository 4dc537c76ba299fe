import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { LogLevel } from '../../shared/core/config';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/core/config';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { ALARM_PERIOD, watch, watchFunctions } from './alarms';
import { ServiceFunction, ServiceRole } from './service-function';
import { eventRules, PLATFORM_EVENT_BUS, recordPlatformEventEntry } from '../../shared/api/event-rules';

export interface PlatformEventsProps {
  /** The service's table, which built-in meter entries are written to. */
  table: ITable;
  /** Notified by the dead-letter queue's alarm and the recorder's crash and throttle alarms. */
  alarmTopic: ITopic;
  /** The bus the platform publishes on; the account's default bus when absent. */
  eventBus?: IEventBus;
  problemBaseUrl?: string;
  logLevel?: LogLevel;
}

/** How long, and how often, EventBridge keeps trying to hand an event to the function. */
const RULE_RETRY = { maxEventAge: Duration.hours(24), retryAttempts: 185 };
/** Lambda's own retries when the function fails on an event it accepted (its maximum is 2). */
const FUNCTION_RETRY = { maxEventAge: Duration.hours(6), retryAttempts: 2 };

/**
 * Built-in meters from platform events: one EventBridge rule per row of
 * lib/event-rules.ts, all targeting the record-platform-event function. An
 * event that cannot be delivered (rule retry policy exhausted) or cannot be
 * recorded (the function failed on every attempt, e.g. a malformed event or
 * an unknown operator) ends in one SQS dead-letter queue, with an alarm as
 * soon as anything arrives there.
 */
export class PlatformEvents extends Construct {
  readonly function: ServiceFunction;
  readonly deadLetterQueue: Queue;
  readonly rules: Rule[];

  constructor(scope: Construct, id: string, props: PlatformEventsProps) {
    super(scope, id);
    const eventBus = props.eventBus ?? EventBus.fromEventBusName(this, 'Bus', PLATFORM_EVENT_BUS);

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the platform event rules and function',
    });

    this.function = new ServiceFunction(this, 'RecordPlatformEvent', {
      entry: recordPlatformEventEntry,
      table: props.table,
      // Its own role: failed events are sent on to the dead-letter queue.
      role: new ServiceRole(this, 'RecordPlatformEventRole', {
        table: props.table,
        tableAccess: 'readWrite',
        description: 'The platform event recorder: the table and the platform events dead-letter queue',
      }),
      problemBaseUrl: props.problemBaseUrl ?? DEFAULT_PROBLEM_BASE_URL,
      logLevel: props.logLevel,
    });
    this.function.configureAsyncInvoke({ ...FUNCTION_RETRY, onFailure: new SqsDestination(this.deadLetterQueue) });

    this.rules = eventRules.map(
      (rule) =>
        new Rule(this, `Rule-${rule.id}`, {
          eventBus,
          description: `Counts '${rule.source}' '${rule.detailType}' events on the built-in meter ${rule.meter}`,
          eventPattern: { source: [rule.source], detailType: [rule.detailType] },
          targets: [new LambdaFunction(this.function, { ...RULE_RETRY, deadLetterQueue: this.deadLetterQueue })],
        }),
    );

    watch(this, props.alarmTopic, {
      id: 'platform-events-dead-letters',
      description: 'Platform events that were not recorded as built-in meter entries are waiting in the dead-letter queue',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD }),
      threshold: 1,
    });
    watchFunctions(this, { name: 'platform-events', functions: [['record-platform-event', this.function]], topic: props.alarmTopic });
  }
}
