import type { DeliveryItem, WebhookEndpointItem } from './model';
import { updateEndpoint } from './repository';
import { DELIVERY_WINDOW_MS } from './schedule';

/**
 * Whether a partner's endpoint still takes deliveries. A failed attempt
 * makes the endpoint failing since the event it failed to receive (or since
 * it was registered, or last received one, if later); a delivery ends that.
 * An endpoint that has received none of its events for a day (one event's
 * whole retry window) is marked failing: nothing more is attempted, each
 * event for it is given up at once, so a dead receiver holds no delivery
 * lane, and the partner sees it on GET and the operator in `list-keys`, until
 * the partner registers it again (a new registration starts healthy).
 */
export const FAILING_AFTER_MS = DELIVERY_WINDOW_MS;

export const isMarkedFailing = (endpoint: WebhookEndpointItem): boolean => endpoint.MarkedFailingAt !== undefined;

/** Why an event for an endpoint marked failing was given up (its delivery's LastError). */
export const markedFailingError = (endpoint: WebhookEndpointItem): string =>
  `the endpoint is marked failing since ${endpoint.MarkedFailingAt}: it received no event since ${endpoint.FailingSince}; registering it again resumes deliveries`;

const latest = (...instants: (string | undefined)[]) =>
  instants
    .filter((instant) => instant !== undefined)
    .sort()
    .at(-1) as string;

/** Records an attempt's outcome on its endpoint, writing only when it changes what the endpoint says. */
export async function recordAttemptOutcome(
  endpoint: WebhookEndpointItem,
  delivery: Pick<DeliveryItem, 'CreatedAt'>,
  delivered: boolean,
  now: Date,
): Promise<void> {
  if (delivered) {
    if (!endpoint.FailingSince) return;
    await updateEndpoint(endpoint, {
      expression: 'SET RecoveredAt = :now REMOVE FailingSince',
      condition: 'attribute_not_exists(MarkedFailingAt)',
      values: { ':now': now.toISOString() },
    });
  } else if (!endpoint.FailingSince) {
    await updateEndpoint(endpoint, {
      expression: 'SET FailingSince = :since',
      condition: 'attribute_not_exists(FailingSince)',
      values: { ':since': latest(delivery.CreatedAt, endpoint.CreatedAt, endpoint.RecoveredAt) },
    });
  } else if (now.getTime() - Date.parse(endpoint.FailingSince) >= FAILING_AFTER_MS) {
    await updateEndpoint(endpoint, {
      expression: 'SET MarkedFailingAt = :now',
      condition: 'FailingSince = :since AND attribute_not_exists(MarkedFailingAt)',
      values: { ':now': now.toISOString(), ':since': endpoint.FailingSince },
    });
  }
}
