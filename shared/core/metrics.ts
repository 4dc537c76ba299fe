/** The business events the domains count, each with the outcomes it can have. */
export const businessMetrics = {
  Bookings: ['created', 'held', 'confirmed', 'expired', 'replayed', 'refused-capacity', 'cancelled', 'extended', 'changed'],
  UsageEntries: ['recorded', 'replayed', 'voided'],
  PlatformEvents: ['recorded', 'rejected'],
  Authorizations: ['allowed', 'denied'],
} as const;

export type BusinessMetric = keyof typeof businessMetrics;
export type Outcome<M extends BusinessMetric> = (typeof businessMetrics)[M][number];

/**
 * The port through which domain code counts business events without knowing
 * how they are published. Functions publish them as CloudWatch metrics
 * (shared/http/observability.ts sets the sink when it loads); where nothing
 * publishes (the admin CLI, unit tests), a count goes nowhere.
 */
export type BusinessEventSink = (event: BusinessEvent) => void;

export interface BusinessEvent<M extends BusinessMetric = BusinessMetric> {
  metric: M;
  outcome: Outcome<M>;
  /** Absent only where no operator could be named (a platform event without one). */
  operatorId?: string;
  count: number;
}

let sink: BusinessEventSink = () => undefined;

export function countBusinessEvent<M extends BusinessMetric>(metric: M, outcome: Outcome<M>, operatorId?: string, count = 1): void {
  sink({ metric, outcome, operatorId, count } as BusinessEvent);
}

export function publishBusinessEventsTo(next: BusinessEventSink): void {
  sink = next;
}
