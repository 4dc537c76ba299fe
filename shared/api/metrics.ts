/**
 * The service's CloudWatch metrics, one namespace, as the functions emit them
 * (EMF) and as the stack's dashboard and alarms read them. Each metric counts
 * one kind of business event (shared/core/metrics.ts names them); its
 * `outcome` dimension says what happened. The operator ID travels as an EMF
 * property, searchable in Logs Insights, never as a dimension: dimensions are
 * few and fixed so the metric count stays small.
 */
export const METRIC_NAMESPACE = 'OtaUsage';

/** Powertools' `service` dimension on every metric and field on every log line. */
export const SERVICE_NAME = 'ota-usage';

export const OUTCOME_DIMENSION = 'outcome';
