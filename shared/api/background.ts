/**
 * The service's work that no request starts: functions run on a schedule
 * and the function that drains the webhook delivery queue. The CDK stack
 * makes a schedule (EventBridge Scheduler) per row and the queue with its
 * dead-letter queue; the local host runs the same handlers on a timer and
 * behind an in-process queue.
 */
export interface ScheduledFunction {
  id: string;
  entry: string;
  /** The schedule's period, in minutes. */
  everyMinutes: number;
  description: string;
  /** The function queues webhook deliveries. */
  sendsWebhooks?: true;
}

export const scheduledFunctions: readonly ScheduledFunction[] = [
  {
    id: 'expire-holds',
    entry: 'functions/bookings/expire-holds.ts',
    everyMinutes: 1,
    description: 'Expires the holds that are due and gives their places back',
    sendsWebhooks: true,
  },
  {
    id: 'retry-webhooks',
    entry: 'functions/webhooks/retry-webhooks.ts',
    everyMinutes: 1,
    description: 'Queues the webhook deliveries whose next attempt is due',
    sendsWebhooks: true,
  },
];

/** The delivery queue's consumer: one attempt per message. */
export const webhookSender = {
  id: 'send-webhooks',
  entry: 'functions/webhooks/send-webhooks.ts',
  /** Messages per invocation. */
  batchSize: 10,
  /** Receives of one message before SQS moves it to the dead-letter queue (the sender failed on it every time). */
  maxReceiveCount: 5,
} as const;
