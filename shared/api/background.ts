/**
 * The service's work that no request starts: functions run on a schedule,
 * and the table stream's consumers (the webhook sender, handed each delivery
 * to attempt; the usage limits' watcher, handed each count of a limit). The
 * CDK stack makes a schedule (EventBridge Scheduler) per row and each
 * consumer's event source mapping with its dead-letter queue
 * (lib/aws/background-work.ts); the local host runs the same handlers on a
 * timer and reads DynamoDB Local's stream itself (lib/local/table-stream.ts).
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
    id: 'retry-webhooks',
    entry: 'functions/webhooks/retry-webhooks.ts',
    everyMinutes: 1,
    description: 'Queues an attempt of each webhook delivery whose next attempt is due',
  },
];

/** An event-filtering pattern as Lambda reads it: fields, each a list of allowed strings, `{ exists }` or `{ prefix }`. */
export type FilterPattern = {
  readonly [key: string]: FilterPattern | readonly (string | { readonly exists: boolean } | { readonly prefix: string })[];
};

/** A consumer of the table's stream: its function, its mapping's settings and its filters (a record passing any one is handed over). */
export interface StreamConsumer {
  id: string;
  entry: string;
  /** Records per invocation. */
  batchSize: number;
  /** Invocations of a shard's batches at once; the records of one item stay in order (one partition key, one lane). */
  parallelizationFactor: number;
  /** Retries of a record the function failed on (not a failed attempt: a failure to work at all) before it is a dead letter. */
  retryAttempts: number;
  filters: readonly FilterPattern[];
}

const WRITTEN = ['INSERT', 'MODIFY'] as const;

/**
 * The stream's consumer: one attempt per record the filter passes, which is
 * every write of a pending delivery that sets QueuedAt (shared/webhooks/model.ts).
 * The filter is an event-filtering pattern as Lambda reads it: the local host
 * applies the same pattern to the records it reads.
 */
export const webhookSender: StreamConsumer = {
  id: 'send-webhooks',
  entry: 'functions/webhooks/send-webhooks.ts',
  // Attempted in parallel; a slow receiver holds up only the records hashed to its lane.
  batchSize: 10,
  parallelizationFactor: 10,
  retryAttempts: 4,
  filters: [
    {
      eventName: WRITTEN,
      dynamodb: {
        NewImage: {
          Entity: { S: ['WebhookDelivery'] },
          Status: { S: ['PENDING'] },
          QueuedAt: { S: [{ exists: true }] },
        },
      },
    },
  ],
};

/**
 * The usage limits' watcher (shared/usage/limit-alerts.ts): every write of
 * a limit's gate (an entry or a void counted) and of a limit (put), whose
 * period it decides the threshold alerts of. A batch's records of one gate
 * are decided once, on the gate as it then is.
 */
export const usageLimitWatcher: StreamConsumer = {
  id: 'watch-usage-limits',
  entry: 'functions/usage/watch-usage-limits.ts',
  batchSize: 100,
  parallelizationFactor: 10,
  retryAttempts: 10,
  filters: [{ eventName: WRITTEN, dynamodb: { NewImage: { Entity: { S: ['UsageGate', 'UsageLimit'] } } } }],
};

export const streamConsumers: readonly StreamConsumer[] = [webhookSender, usageLimitWatcher];
