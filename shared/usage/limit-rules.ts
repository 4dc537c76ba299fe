import { everyViolation, violationsOf, type FieldViolation, type ValidationError } from '../core/errors';
import { isBuiltInMeter } from './built-in-meters';
import { canonicalDimensions } from './combinations';
import { numberPrecision } from './decimal';
import { AMOUNT_RULE, MAX_THRESHOLD_DECIMAL_PLACES, THRESHOLD_RULE, type LimitPeriod } from './limit-model';
import { countable, periodAt } from './limit-periods';
import type { UsageLimitInput } from './limit-schemas';
import { MAX_USAGE_DECIMAL_PLACES, MAX_USAGE_SIGNIFICANT_DIGITS } from './model';
import { checkTimeZone } from './period';

/** A limit's definition once its rules hold: its zone resolved, its filter canonical (`{}` is none), its thresholds ascending. */
export interface LimitDefinition {
  Meter: string;
  Filter?: Record<string, string>;
  Period: LimitPeriod;
  TimeZone: string;
  Amount: string;
  Thresholds: number[];
  Enforcement: UsageLimitInput['Enforcement'];
}

/** The zone of a limit's periods, or why it cannot be one: named, or else the operator's. */
function zoneViolation(input: UsageLimitInput, operatorZone: string, now: Date): FieldViolation | { zone: string } {
  let zone: string;
  try {
    zone = input.TimeZone === undefined ? operatorZone : checkTimeZone(input.TimeZone, 'TimeZone');
  } catch (error) {
    return violationsOf(error as ValidationError)[0];
  }
  if (countable(periodAt(input.Period, zone, Math.floor(now.getTime() / 1000)))) return { zone };
  const whose = input.TimeZone === undefined ? `is not given, and the operator's zone ${zone}` : `is ${zone}, which`;
  return {
    field: 'TimeZone',
    message: `${whose} does not start its days on whole UTC hours; name a zone whose midnights fall on whole UTC hours (usage is kept per UTC hour)`,
  };
}

/**
 * The rules of a limit a schema cannot state: Amount and Thresholds as
 * exact as usage, a REFUSE limit's thresholds within its Amount (Used never
 * passes it), no REFUSE on a built-in meter (platform events are never
 * refused), and a zone whose periods can be cut from hourly aggregates.
 * Every rule broken is named; nothing is written.
 */
export function checkedDefinition(input: UsageLimitInput, operatorZone: string, now: Date): LimitDefinition {
  const violations: FieldViolation[] = [];
  const amount = numberPrecision(input.Amount);
  if (amount.decimalPlaces > MAX_USAGE_DECIMAL_PLACES || amount.significantDigits > MAX_USAGE_SIGNIFICANT_DIGITS) {
    violations.push({ field: 'Amount', message: AMOUNT_RULE });
  }
  input.Thresholds.forEach((percent, i) => {
    if (numberPrecision(percent).decimalPlaces > MAX_THRESHOLD_DECIMAL_PLACES)
      violations.push({ field: `Thresholds[${i}]`, message: THRESHOLD_RULE });
    else if (input.Enforcement === 'REFUSE' && percent > 100) {
      violations.push({
        field: `Thresholds[${i}]`,
        message: 'must be at most 100 when Enforcement is REFUSE: Used never passes the Amount, so a higher threshold is never crossed',
      });
    }
  });
  if (input.Enforcement === 'REFUSE' && isBuiltInMeter(input.Meter)) {
    violations.push({
      field: 'Enforcement',
      message: `must be 'NONE' for the built-in meter '${input.Meter}': its entries are platform events, which are never refused`,
    });
  }
  const zone = zoneViolation(input, operatorZone, now);
  if ('field' in zone) violations.push(zone);
  if (violations.length) throw everyViolation(violations);
  const filter = canonicalDimensions(input.Filter);
  return {
    Meter: input.Meter,
    ...(filter ? { Filter: filter } : {}),
    Period: input.Period,
    TimeZone: (zone as { zone: string }).zone,
    Amount: String(input.Amount),
    Thresholds: [...input.Thresholds].sort((a, b) => a - b),
    Enforcement: input.Enforcement,
  };
}
