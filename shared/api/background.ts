/**
 * The service's work that no request starts: functions run on a schedule
 * and the webhook sender, which the table's stream hands each delivery to
 * attempt. The CDK stack makes a schedule (EventBridge Scheduler) per row
 * and the stream's event source mapping with its dead-letter queue; the
 * local host runs the same handlers on a timer and reads DynamoDB Local's
 * stream itself (lib/local/table-stream.ts).
 */
export interface ScheduledFunction {
  id: string;
  entry: string;
  /** The schedule's period, in minutes. */
  everyMinutes: number;
  description: string;
}

export const scheduledFunctions: readonly ScheduledFunction[] = [
  {
    id: 'expire-holds',
    entry: 'functions/bookings/expire-holds.ts',
    everyMinutes: 1,
    description: 'Expires the holds that are due and gives their places back; carries on with unfinished timeslot cancellations',
  },
  {
    id: 'anonymise-bookings',
    entry: 'functions/bookings/anonymise-bookings.ts',
    everyMinutes: 15,
    description: 'Erases the personal data of bookings whose activity ended the retention period ago, a thousand at most a run',
  },
  {
    id: 'retry-webhooks',
    entry: 'functions/webhooks/retry-webhooks.ts',
    everyMinutes: 1,
    description: 'Queues an attempt of each webhook delivery whose next attempt is due',
  },
];

/**
 * The stream's consumer: one attempt per record the filter passes, which is
 * every write of a pending delivery that sets QueuedAt (shared/webhooks/model.ts).
 * The filter is an event-filtering pattern as Lambda reads it: the local host
 * applies the same pattern to the records it reads.
 */
export const webhookSender = {
  id: 'send-webhooks',
  entry: 'functions/webhooks/send-webhooks.ts',
  /** Records per invocation, attempted in parallel. */
  batchSize: 10,
  /** Invocations of a shard's batches at once: a slow receiver holds up only the records hashed to its lane. */
  parallelizationFactor: 10,
  /** Retries of a record the sender failed on (not a failed attempt: a failure to work at all) before it is a dead letter. */
  retryAttempts: 4,
  filter: {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: {
      NewImage: {
        Entity: { S: ['WebhookDelivery'] },
        Status: { S: ['PENDING'] },
        QueuedAt: { S: [{ exists: true }] },
      },
    },
  },
} as const;
