import { loadHandler } from '../../functions/load-handler';
import { scheduledFunctions } from '../../shared/api/background';

/**
 * Plays EventBridge Scheduler on one machine: runs the scheduled functions
 * of shared/api/background.ts, the very same handlers, every minute (or as
 * told), one run at a time. `runOnce` runs them now, which is how tests
 * move through time without waiting for it.
 */
export interface LocalSchedulerOptions {
  /** The timer's period; without it the functions run only when `runOnce` is called. */
  intervalMs?: number;
}

export interface LocalScheduler {
  /** Runs every scheduled function once, in table order, and resolves with what each reported. */
  runOnce(): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

type ScheduledHandler = () => Promise<unknown>;

export function createLocalScheduler(options: LocalSchedulerOptions = {}): LocalScheduler {
  const handlers = scheduledFunctions.map((scheduled) => ({ id: scheduled.id, run: loadHandler<ScheduledHandler>(scheduled.entry) }));
  let running: Promise<Record<string, unknown>> | undefined;

  const runAll = async () => {
    const results: Record<string, unknown> = {};
    for (const handler of handlers) {
      try {
        results[handler.id] = await handler.run();
      } catch (error) {
        // Logged by the handler itself; the next run tries again, as the scheduler would.
        results[handler.id] = { error: String(error) };
      }
    }
    return results;
  };

  /** Overlapping runs share the one in progress, as one schedule target runs at a time here. */
  const runOnce = () => {
    running ??= runAll().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = options.intervalMs ? setInterval(() => void runOnce(), options.intervalMs) : undefined;
  timer?.unref();

  return {
    runOnce,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
