/**
 * The service's CloudWatch metrics, one namespace, as the functions emit them
 * (EMF, shared/core/observability.ts) and as the stack's dashboard and alarms
 * read them. Each business metric counts one kind of business event; its
 * `outcome` dimension says what happened. The operator ID travels as an EMF
 * property, searchable in Logs Insights, never as a dimension: dimensions are
 * few and fixed so the metric count stays small.
 */
export const METRIC_NAMESPACE = 'OtaUsage';

/** Powertools' `service` dimension on every metric and field on every log line. */
export const SERVICE_NAME = 'ota-usage';

export const OUTCOME_DIMENSION = 'outcome';

/** The latency of each call to a dependency, with `dependency` (DynamoDB) and `operation` (TransactWriteItems ...) as dimensions. */
export const DEPENDENCY_LATENCY_METRIC = 'DependencyLatency';

/** The business events the domains count, each with the outcomes it can have. */
export const businessMetrics = {
  Bookings: [
    'created',
    'held',
    'confirmed',
    'expired',
    'replayed',
    'refused-capacity',
    'refused-hold-cap',
    'cancelled',
    'extended',
    'changed',
    'erased',
  ],
  UsageEntries: ['recorded', 'replayed', 'refused', 'voided'],
  PlatformEvents: ['recorded', 'rejected'],
  Authorizations: ['allowed', 'denied'],
} as const;

export type BusinessMetric = keyof typeof businessMetrics;
export type Outcome<M extends BusinessMetric> = (typeof businessMetrics)[M][number];

/**
 * The port through which domain code counts business events without knowing
 * how they are published. Functions publish them as CloudWatch metrics
 * (shared/core/observability.ts sets the sink when it loads); where nothing
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
