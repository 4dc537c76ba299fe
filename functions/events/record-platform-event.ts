import type { EventBridgeEvent } from 'aws-lambda';
import { ruleFor } from '../../shared/api/event-rules';
import { countBusinessEvent } from '../../shared/core/metrics';
import { annotate, observed } from '../../shared/core/observability';
import { OPERATOR_FIELD } from '../../shared/usage/built-in-meters';
import { recordPlatformEvent, UnrecordablePlatformEvent } from '../../shared/usage/platform-events';

type PlatformEvent = EventBridgeEvent<string, unknown>;

const namedOperator = (event: PlatformEvent) => {
  const operatorId = (event.detail as Record<string, unknown> | null)?.[OPERATOR_FIELD];
  return typeof operatorId === 'string' ? operatorId : undefined;
};

/** What became of an event: its answer (which EventBridge ignores) and the fields of its line. */
type EventOutcome = { outcome: 'recorded' | 'replayed'; entryId: number; meter: string; operatorId?: string };

async function record(event: PlatformEvent): Promise<EventOutcome> {
  try {
    const { entry, replayed } = await recordPlatformEvent(event, ruleFor(event)?.meter);
    if (!replayed) countBusinessEvent('PlatformEvents', 'recorded', namedOperator(event));
    const outcome: EventOutcome = {
      outcome: replayed ? 'replayed' : 'recorded',
      entryId: entry.ID,
      meter: entry.Meter,
      operatorId: namedOperator(event),
    };
    annotate(outcome);
    return outcome;
  } catch (error) {
    // Events no retry can record (malformed, unknown operator) are bound for the dead-letter queue.
    if (error instanceof UnrecordablePlatformEvent) countBusinessEvent('PlatformEvents', 'rejected', namedOperator(event));
    throw error;
  }
}

/**
 * Target of the platform event rules (shared/api/event-rules.ts). Invoked
 * asynchronously: a thrown error makes Lambda retry and then hand the event
 * to the dead-letter queue; every failure is logged with its stack and rethrown.
 */
export const handler = observed<PlatformEvent, EventOutcome>(
  {
    message: { ok: 'Platform event', failed: 'Platform event not recorded' },
    fields: (event, { error }) => ({
      eventId: event.id,
      source: event.source,
      detailType: event['detail-type'],
      // False for events bound for the dead-letter queue whatever happens (malformed, unknown operator).
      ...(error === undefined ? {} : { retryable: (error as { retryable?: boolean } | null)?.retryable ?? true }),
    }),
  },
  record,
);
