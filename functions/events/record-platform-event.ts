import middy from '@middy/core';
import type { EventBridgeEvent } from 'aws-lambda';
import { ruleFor } from '../../shared/api/event-rules';
import { countBusinessEvent } from '../../shared/core/metrics';
import { observedEvents, type EventOutcome } from '../../shared/http/observability';
import { OPERATOR_FIELD } from '../../shared/usage/built-in-meters';
import { recordPlatformEvent, UnrecordablePlatformEvent } from '../../shared/usage/platform-events';

const namedOperator = (event: EventBridgeEvent<string, unknown>) => {
  const operatorId = (event.detail as Record<string, unknown> | null)?.[OPERATOR_FIELD];
  return typeof operatorId === 'string' ? operatorId : undefined;
};

/**
 * Target of the platform event rules (shared/api/event-rules.ts). Invoked
 * asynchronously: a thrown error makes Lambda retry and then hand the event
 * to the dead-letter queue; every failure is logged with its stack (observability.ts) and rethrown.
 */
export const handler = middy<EventBridgeEvent<string, unknown>, EventOutcome>()
  .use(observedEvents())
  .handler(async (event): Promise<EventOutcome> => {
    try {
      const { entry, replayed } = await recordPlatformEvent(event, ruleFor(event)?.meter);
      const operatorId = namedOperator(event);
      if (!replayed) countBusinessEvent('PlatformEvents', 'recorded', operatorId);
      return { outcome: replayed ? 'replayed' : 'recorded', entryId: entry.ID, meter: entry.Meter, operatorId };
    } catch (error) {
      // Events no retry can record (malformed, unknown operator) are bound for the dead-letter queue.
      if (error instanceof UnrecordablePlatformEvent) countBusinessEvent('PlatformEvents', 'rejected', namedOperator(event));
      throw error;
    }
  });
