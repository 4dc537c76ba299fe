import { observed } from './observability';

/**
 * The handler of a scheduled function (the sweeps): runs the work and writes
 * its one line with what it did; a failure is logged and rethrown, so that
 * the scheduler's retry policy and the function's error metric see it.
 */
export function scheduledHandler<T extends Record<string, number>>(name: string, work: () => Promise<T>) {
  return observed<unknown, T>({ message: 'Scheduled run', fields: (_, { result }) => ({ schedule: name, ...result }) }, () => work());
}
