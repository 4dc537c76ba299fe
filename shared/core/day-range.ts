import { ValidationError } from './errors';
import { daysBetween } from './calendar';

/**
 * The rule every date-range query shares: the last day not before the first,
 * and, where given, at most `maxDays` days with both ends counted. Returns
 * the number of days after the first (0 for a single day).
 */
export function checkDayRange(first: { name: string; date: string }, last: { name: string; date: string }, maxDays?: number): number {
  const span = daysBetween(first.date, last.date);
  if (span < 0) throw new ValidationError(`must not be before '${first.name}'`, { field: last.name });
  if (maxDays !== undefined && span + 1 > maxDays) {
    throw new ValidationError(`The range from '${first.name}' to '${last.name}' spans ${span + 1} days; at most ${maxDays} are allowed`);
  }
  return span;
}
