import type { EventBridgeEvent } from 'aws-lambda';
import { recordPlatformEvent, UnrecordablePlatformEvent } from '../../shared/usage/platform-events';

/**
 * Target of the platform event rules (lib/event-rules.ts). Invoked
 * asynchronously: a thrown error makes Lambda retry and then hand the event
 * to the dead-letter queue, so every failure is logged and rethrown.
 */
export async function handler(event: EventBridgeEvent<string, unknown>): Promise<void> {
  try {
    const { entry, replayed } = await recordPlatformEvent(event);
    const message = replayed ? 'Platform event already recorded' : 'Platform event recorded';
    console.log(JSON.stringify({ level: 'info', message, eventId: event.id, entryId: entry.ID, meter: entry.Meter }));
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'error',
        message: 'Platform event not recorded',
        reason: error instanceof Error ? error.message : String(error),
        // False for events that no retry can record (malformed, unknown operator): they are bound for the dead-letter queue.
        retryable: !(error instanceof UnrecordablePlatformEvent),
        event,
      }),
    );
    throw error;
  }
}
