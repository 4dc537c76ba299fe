/**
 * The handler of a scheduled function: runs the work and logs what it did
 * as one structured line; a failure is logged and rethrown, so that the
 * scheduler's retry policy and the function's error metric see it.
 */
export function scheduledHandler<T extends Record<string, number>>(name: string, work: () => Promise<T>) {
  return async (): Promise<T> => {
    try {
      const result = await work();
      console.log(JSON.stringify({ level: 'info', message: `${name} done`, ...result }));
      return result;
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: `${name} failed`, error: String(error) }));
      throw error;
    }
  };
}
