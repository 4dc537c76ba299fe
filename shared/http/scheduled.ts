import { log } from './observability';

/**
 * The handler of a scheduled function: runs the work and logs what it did
 * as one structured line; a failure is logged and rethrown, so that the
 * scheduler's retry policy and the function's error metric see it.
 */
export function scheduledHandler<T extends Record<string, number>>(name: string, work: () => Promise<T>) {
  return async (): Promise<T> => {
    try {
      const result = await work();
      log().info(`${name} done`, result);
      return result;
    } catch (error) {
      log().error(`${name} failed`, { error });
      throw error;
    }
  };
}
