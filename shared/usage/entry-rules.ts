import { isBuiltInMeter } from './built-in-meters';
import { numberPrecision } from './decimal';
import { MAX_USAGE_DECIMAL_PLACES, MAX_USAGE_SIGNIFICANT_DIGITS, USAGE_RULE } from './model';
import type { UsageInput } from './schemas';

export interface InputViolation {
  field: string;
  message: string;
}

/** The rules a schema cannot state: the precision of Usage, and meter names kept for platform events. */
export function usageInputViolations(input: UsageInput, options: { builtIn?: boolean; prefix?: string } = {}): InputViolation[] {
  const prefix = options.prefix ?? '';
  const violations: InputViolation[] = [];
  const { significantDigits, decimalPlaces } = numberPrecision(input.Usage);
  if (decimalPlaces > MAX_USAGE_DECIMAL_PLACES || significantDigits > MAX_USAGE_SIGNIFICANT_DIGITS) {
    violations.push({ field: `${prefix}Usage`, message: USAGE_RULE });
  }
  if (!options.builtIn && isBuiltInMeter(input.Meter)) {
    violations.push({ field: `${prefix}Meter`, message: `names the built-in meter '${input.Meter}', which only platform events record` });
  }
  return violations;
}
