/**
 * Usage limits: their rules, and the items that keep them. docs/usage.md
 * ("Usage limits") documents each rule and number.
 */

/** A limit's ID, chosen by the operator: the last segment of its path. */
export const LIMIT_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const LIMIT_ID_RULE = "must be 1 to 64 letters, digits, '_' or '-'";

export const LIMIT_PERIODS = ['DAY', 'MONTH'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];

/** NONE: the limit alerts only. REFUSE: an entry that would take Used past Amount is refused, and nothing of it written. */
export const ENFORCEMENTS = ['NONE', 'REFUSE'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

/**
 * Limits per operator: each is read by the list in one page, and each meter's
 * limits are copied into its guards (below).
 */
export const MAX_LIMITS = 50;
/**
 * Limits per meter: every entry of a meter counts in each of its limits
 * that matches it, in the entry's own transaction, so this bounds what
 * limits add to recording (the meter's guard, updated in place of being
 * checked, and one gate per REFUSE limit: at most 5 items to a transaction of 5).
 */
export const MAX_METER_LIMITS = 5;

/** An Amount is an exact decimal greater than 0 and at most 10^15 ... */
export const MAX_LIMIT_AMOUNT = 1_000_000_000_000_000;
/** ... with at most 6 decimal places (as usage) and 15 significant digits, so the decimal sent is the decimal kept. */
export const AMOUNT_RULE = `must be a number greater than 0 and at most ${MAX_LIMIT_AMOUNT}, with at most 6 decimal places and 15 significant digits`;

/** Thresholds: at most this many percentages of the Amount ... */
export const MAX_THRESHOLDS = 10;
/** ... each greater than 0 and at most 1000 (an alert at ten times the Amount), with at most 2 decimal places. */
export const MAX_THRESHOLD_PERCENT = 1000;
export const MAX_THRESHOLD_DECIMAL_PLACES = 2;
export const THRESHOLD_RULE = `must be a percentage of the Amount greater than 0 and at most ${MAX_THRESHOLD_PERCENT}, with at most ${MAX_THRESHOLD_DECIMAL_PLACES} decimal places`;

/**
 * What recording needs of a limit, copied into its meter's guards: which
 * entries it counts (Filter), in which periods (Period, TimeZone, from
 * AppliesFrom on), up to what (Amount, as exact decimal text), how
 * (Enforcement), and the gate or counters that count them (GateKey).
 */
export interface LimitRule {
  LimitID: string;
  /** Names the limit's gates or counters: a new one whenever what the limit counts or how it enforces changes, so counts never mix definitions. */
  GateKey: string;
  Filter?: Record<string, string>;
  Period: LimitPeriod;
  TimeZone: string;
  Amount: string;
  Enforcement: Enforcement;
  /** Unix seconds: the start of the period the limit was put in. Entries of earlier periods are outside it. */
  AppliesFrom: number;
}

/** A limit as stored: its rule, its thresholds, and when it was made and last changed. */
export interface LimitItem extends LimitRule {
  Meter: string;
  Thresholds: number[];
  CreatedAt: string;
  UpdatedAt: string;
}

/**
 * A meter's limits as every recording process reads them: one copy per
 * aggregate shard (so that writing it spreads as the shard's writes do),
 * all written together, their Version moving on at every change. Each
 * recording transaction writes its shard's copy on the condition that it
 * is at the Version it recorded by, so no entry is written under limits
 * that changed meanwhile.
 *
 * The copy also holds the counters of the meter's alert-only (NONE)
 * limits in its shard (limit-counters.ts): one attribute per limit and
 * period, `U#<GateKey>#<PeriodKey>`, the exact usage of the shard's entries
 * the limit counts in that period; Writes, moved on by every write of a
 * counter, so that the watcher can order what it reads; Counted, the
 * counters the last write added to (`<GateKey>#<PeriodKey>`, space-separated),
 * which its stream record hands the watcher; and Pruned, how many times
 * counters were removed from it.
 */
export interface GuardItem {
  Meter: string;
  Version: number;
  Limits: LimitRule[];
}

/** The attribute of a NONE limit's counter of one period, in its meter's guards. */
export const counterName = (gateKey: string, periodKey: string): string => `U#${gateKey}#${periodKey}`;

export const isCounterName = (attribute: string): boolean => attribute.startsWith('U#');

/** A counter's limit (its GateKey) and period, from its attribute's name. */
export function counterOf(attribute: string): { gateKey: string; periodKey: string } {
  const [, gateKey, periodKey] = attribute.split('#');
  return { gateKey, periodKey };
}

/**
 * Counters each NONE limit keeps in a guard. When a period after all of its
 * others begins (its first counter is made), a limit keeps its
 * COUNTERS_KEPT newest periods; counters of older periods made again
 * meanwhile for late entries stay beside them while they are among its
 * COUNTERS_MOST newest (or are made now), the oldest removed first. So a guard stays the size of its limits, and
 * late entries of a few periods, in any order, do not remove each other's
 * counters; a counter removed is made again from the aggregates if an entry needs it.
 */
export const COUNTERS_KEPT = 3;
export const COUNTERS_MOST = 8;

/**
 * A REFUSE limit's count of one period: Used, the usage of the entries it
 * counts in that period, exact, in one gate item whose condition is the
 * limit itself. Version moves on at every write, so that the stream's
 * consumer can order what it reads.
 */
export interface GateItem {
  OperatorID: string;
  LimitID: string;
  GateKey: string;
  PeriodKey: string;
  Used: string;
  Version: number;
}

/** How long a gate, and its period's alert state, is kept after its period ends: backdated entries find it; later ones make it again. */
export const GATE_RETENTION_SECONDS = 35 * 24 * 60 * 60;

/**
 * The thresholds of one period that are crossed, and the reading they were
 * decided on: the limit's Revision, and Order, the sum of what orders the
 * items its Used was read from (a REFUSE gate's Version, or the 8 guards' Writes).
 */
export interface AlertStateItem {
  Crossed: number[];
  Revision: number;
  Order: number;
}

/**
 * Threshold alerts on EventBridge: the account's default bus, this source,
 * one detail-type per event type; the detail is the event a webhook carries,
 * with the delivery's `id`.
 */
export const USAGE_EVENT_SOURCE = 'ota.usage';
export const THRESHOLD_EVENTS = {
  'usage.threshold.crossed': 'Usage Threshold Crossed',
  'usage.threshold.resolved': 'Usage Threshold Resolved',
} as const;
export type ThresholdEventType = keyof typeof THRESHOLD_EVENTS;
