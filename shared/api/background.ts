/**
 * The service's work that no request starts: functions run on a schedule,
 * the table stream's consumers (the webhook sender, handed each delivery to
 * attempt; the announcer, handed each change partners hear of; the usage
 * limits' watcher, handed each count of a limit) and the announcement
 * queue's consumer. The CDK stack makes a schedule (EventBridge Scheduler)
 * per row, each consumer's event source mapping with its dead-letter queue,
 * and the queue (lib/aws/background-work.ts); the local host runs the same
 * handlers on a timer, reads DynamoDB Local's stream itself
 * (lib/local/table-stream.ts) and plays the queue (lib/local/queue.ts).
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
  {
    id: 'flush-overdue',
    entry: 'functions/changes/flush-overdue.ts',
    everyMinutes: 1,
    description: 'Makes the trailing flushes of announcements whose queue message was lost',
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
  /** Items of a batch the function works on at once (each item's records one after the other). */
  itemsAtOnce: number;
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
  itemsAtOnce: 10,
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
 * The announcer (shared/changes): every write of a timeslot (matched by its
 * SK, so timeslots written before any Entity attribute are matched too), of a
 * product, and of an OCTo booking (one a partner addresses by UUID).
 */
export const changeAnnouncer: StreamConsumer = {
  id: 'announce-changes',
  entry: 'functions/changes/announce-changes.ts',
  batchSize: 100,
  parallelizationFactor: 10,
  // A few at once: announcements of one operator take positions in the same feed shards, and contend for them.
  itemsAtOnce: 4,
  retryAttempts: 10,
  filters: [
    { eventName: WRITTEN, dynamodb: { Keys: { SK: { S: [{ prefix: 'SLOT#' }] } } } },
    { eventName: WRITTEN, dynamodb: { NewImage: { Entity: { S: ['Product'] } } } },
    { eventName: WRITTEN, dynamodb: { NewImage: { Entity: { S: ['Booking'] }, UUID: { S: [{ exists: true }] } } } },
  ],
};

/**
 * The usage limits' watcher (shared/usage/limit-alerts.ts): every write of
 * a REFUSE limit's gate and of a meter's guard that counted (an entry or a
 * void: a guard's record names its counters in Counted; a change of the
 * limits, or a counter made, names none), and of a limit (put), whose
 * periods it decides the threshold alerts of. A batch's records of one
 * limit's period are decided once, on its counts as they then are.
 */
export const usageLimitWatcher: StreamConsumer = {
  id: 'watch-usage-limits',
  entry: 'functions/usage/watch-usage-limits.ts',
  batchSize: 100,
  parallelizationFactor: 10,
  // Every decision of a batch at once: each is one limit's period, decided on its gates as read.
  itemsAtOnce: 100,
  retryAttempts: 10,
  filters: [
    { eventName: WRITTEN, dynamodb: { NewImage: { Entity: { S: ['UsageGate', 'UsageLimit'] } } } },
    { eventName: WRITTEN, dynamodb: { NewImage: { Entity: { S: ['UsageLimitGuard'] }, Counted: { S: [{ exists: true }] } } } },
  ],
};

export const streamConsumers: readonly StreamConsumer[] = [webhookSender, changeAnnouncer, usageLimitWatcher];

/**
 * The queue that wakes announcements' trailing flushes (SQS, each message
 * delayed to the end of its timeslot's coalescing window), and its consumer.
 * A message its consumer fails on is received again, up to maxReceiveCount
 * times, then kept in a dead-letter queue; the sweep makes the flush.
 */
export const announcementQueue = {
  id: 'announcement-flushes',
  consumer: { id: 'flush-announcements', entry: 'functions/changes/flush-announcements.ts' },
  batchSize: 10,
  maxReceiveCount: 5,
  /** How long a received message stays hidden from other receivers: beyond the consumer's timeout. */
  visibilityTimeoutSeconds: 60,
} as const;

/** Every function of the background work, by its id and handler: the stream's consumers, the queue's, one per schedule. */
export const backgroundFunctions: readonly { id: string; entry: string }[] = [
  ...streamConsumers,
  announcementQueue.consumer,
  ...scheduledFunctions,
].map(({ id, entry }) => ({ id, entry }));
