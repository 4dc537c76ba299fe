import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { InitializeMiddleware, MiddlewareStack } from '@smithy/types';
import type { Context } from 'aws-lambda';
import { config, type LogLevel } from './config';
import { DEPENDENCY_LATENCY_METRIC, METRIC_NAMESPACE, OUTCOME_DIMENSION, publishBusinessEventsTo, SERVICE_NAME } from './metrics';

/**
 * The one observability of the service, for every kind of function (routes,
 * the authorizer, the platform-event recorder, the webhook sender, the
 * sweeps), for domain code and for the local host, with Powertools for AWS
 * Lambda's logger and metrics:
 *
 * - each invocation writes one line (`observed`), with its latency, cold
 *   start, IDs, the fields its kind and its code add (`annotate`), and the
 *   calls it made to DynamoDB with their latency; an invocation that
 *   failed writes it at ERROR with the error, its stack mapped to the sources;
 * - every business event counted through shared/core/metrics.ts, and every
 *   dependency call, is a CloudWatch metric in EMF.
 *
 * Every line carries its own fields (nothing is appended to the shared
 * logger) and each invocation keeps its calls in its own AsyncLocalStorage
 * scope, because the local host runs every handler in one process, concurrently.
 * What is never logged: request bodies, secrets, and every header but a few
 * harmless ones (shared/http/handler.ts chooses them).
 */

const logger = new Logger({ serviceName: SERVICE_NAME });
const metrics = new Metrics({ namespace: METRIC_NAMESPACE, serviceName: SERVICE_NAME });

publishBusinessEventsTo(({ metric, outcome, operatorId, count }) => {
  const single = metrics.singleMetric();
  single.addDimension(OUTCOME_DIMENSION, outcome);
  if (operatorId) single.addMetadata('operatorId', operatorId);
  single.addMetric(metric, MetricUnit.Count, count);
});

let appliedLogLevel: LogLevel | undefined;
/** The logger at the configured level, applied on first use: configuration is read then, not at load. */
export function log(): Logger {
  const { logLevel } = config();
  if (logLevel !== appliedLogLevel) {
    logger.setLogLevel(logLevel);
    appliedLogLevel = logLevel;
  }
  return logger;
}

export type Fields = Record<string, unknown>;

interface DependencyCall {
  dependency: string;
  operation: string;
  ms: number;
  /** The error's name, when the call failed. */
  error?: string;
}

/** What one invocation gathers while it runs: its calls, the fields its code adds, the error its answer hides. */
interface Invocation {
  calls: DependencyCall[];
  fields: Fields;
  error?: unknown;
}

const invocations = new AsyncLocalStorage<Invocation>();

/** Adds fields to the line of the invocation that is running (none outside one). */
export function annotate(fields: Fields): void {
  Object.assign(invocations.getStore()?.fields ?? {}, fields);
}

/** The error behind an answer that hides it (a 500 rendered as a problem): logged with the invocation's line. */
export function noteFailure(error: unknown): void {
  const invocation = invocations.getStore();
  if (invocation) invocation.error = error;
}

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/** A call made by an invocation is on its line and a metric; one made outside any (a seed, the admin CLI) is neither. */
function recordCall(call: DependencyCall): void {
  const invocation = invocations.getStore();
  if (!invocation) return;
  invocation.calls.push(call);
  const single = metrics.singleMetric();
  single.addDimensions({ dependency: call.dependency, operation: call.operation });
  single.addMetric(DEPENDENCY_LATENCY_METRIC, MetricUnit.Milliseconds, call.ms);
}

/**
 * A monotonic clock in milliseconds. Not the global `performance`: its first
 * use loads Node's perf hooks, 1-2 ms of every cold start's first request.
 */
const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** An AWS SDK v3 client with every call (retries included) timed and recorded under `dependency`. */
export function timedCalls<I extends object, O extends object>(
  client: { middlewareStack: MiddlewareStack<I, O> },
  dependency: string,
): void {
  const timing: InitializeMiddleware<I, O> = (next, context) => async (args) => {
    const started = monotonicMs();
    const operation = (context.commandName ?? 'unknown').replace(/Command$/, '');
    try {
      const output = await next(args);
      recordCall({ dependency, operation, ms: roundMs(monotonicMs() - started) });
      return output;
    } catch (error) {
      recordCall({ dependency, operation, ms: roundMs(monotonicMs() - started), error: (error as Error)?.name ?? 'Error' });
      throw error;
    }
  };
  client.middlewareStack.add(timing, { step: 'initialize', name: 'timedCalls', override: true });
}

/** The calls of an invocation as fields of its line: how many, how long in all, the slowest, and each (the first 25). */
function dependencyFields(calls: DependencyCall[]): Fields {
  if (!calls.length) return { dependencyCalls: 0 };
  const slowest = calls.reduce((a, b) => (b.ms > a.ms ? b : a));
  return {
    dependencyCalls: calls.length,
    dependencyMs: roundMs(calls.reduce((sum, call) => sum + call.ms, 0)),
    slowestCall: `${slowest.dependency}.${slowest.operation}`,
    slowestCallMs: slowest.ms,
    calls: calls.slice(0, 25).map((call) => `${call.dependency}.${call.operation} ${call.ms}ms${call.error ? ` ${call.error}` : ''}`),
  };
}

/**
 * A deployed bundle is minified, and source maps are not loaded with it
 * (Node's --enable-source-maps slows every cold start): a logged stack is
 * mapped to the sources when, and only when, an error is logged, with the
 * bundle's own map beside it. Where no map is beside this file (tsx, jest),
 * stacks already name the sources.
 */
let bundleMap: { file: string; map: SourceMap } | null | undefined;

function loadBundleMap(): { file: string; map: SourceMap } | null {
  const mapFile = `${__filename}.map`;
  if (!existsSync(mapFile)) return null;
  return { file: __filename, map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) };
}

/** Maps each `file:line:column` of `stack` that lies in the bundle `file` to its source with `map`. */
export function mapStack(stack: string, file: string, map: SourceMap): string {
  return stack.replace(/([^\s(]+):(\d+):(\d+)/g, (frame, path: string, line: string, column: string) => {
    if (path !== file && !path.endsWith(`/${file}`)) return frame;
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (!entry?.originalSource) return frame;
    const source = entry.originalSource.replace(/^(\.\.\/)+/, '');
    return `${source}:${(entry.originalLine ?? 0) + 1}:${(entry.originalColumn ?? 0) + 1}`;
  });
}

/**
 * Writes a line at ERROR with `error` as Powertools formats errors, its stack
 * mapped to the sources for the moment of writing (the error keeps its own
 * fields, such as an SDK error's `$metadata`). Logging never fails because of
 * the mapping: a map that cannot be read leaves the stack as it is.
 */
function writeError(message: string, fields: Fields, error: unknown): void {
  const stack = error instanceof Error ? error.stack : undefined;
  let mapped: string | undefined;
  try {
    bundleMap ??= loadBundleMap();
    if (stack && bundleMap) mapped = mapStack(stack, bundleMap.file, bundleMap.map);
  } catch {
    bundleMap = null;
  }
  if (mapped) (error as Error).stack = mapped;
  try {
    log().error(message, { ...fields, ...(error === undefined ? {} : { error }) });
  } finally {
    if (mapped) (error as Error).stack = stack;
  }
}

/** Logs at ERROR outside an invocation's line (the local host, a delivery that failed), the error's stack mapped. */
export function logError(message: string, fields: Fields & { error?: unknown }): void {
  const { error, ...rest } = fields;
  writeError(message, rest, error);
}

/** The X-Ray trace of the invocation: Lambda's, else the one the caller forwarded. */
const traceId = (forwarded?: string) => /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? forwarded ?? '')?.[1];

export interface InvocationLine<E, R> {
  /** The line's message: 'Request', 'Authorization', 'Platform event' ..., or one for success and one for failure. */
  message: string | { ok: string; failed: string };
  /** The fields of this kind of invocation, from its event and what it answered. */
  fields: (event: E, outcome: { result?: R; error?: unknown }) => Fields;
  /** Whether the invocation failed (ERROR), from what it answered or threw; by default, when it threw. */
  failed?: (outcome: { result?: R; error?: unknown }) => boolean;
  /** A trace ID the caller forwarded (API Gateway's header), used when Lambda set none. */
  forwardedTraceId?: (event: E) => string | undefined;
}

/**
 * Observes a function of any kind: runs it in a scope of its own and writes
 * its one line when it ends, with what it threw rethrown unchanged.
 */
export function observed<E, R>(line: InvocationLine<E, R>, handler: (event: E, context: Context) => Promise<R>) {
  let coldStart = true;
  return async (event: E, context: Context): Promise<R> => {
    const invocation: Invocation = { calls: [], fields: {} };
    const started = monotonicMs();
    const finish = (outcome: { result?: R; error?: unknown }) => {
      const error = outcome.error ?? invocation.error;
      const fields = {
        ...line.fields(event, outcome),
        ...invocation.fields,
        latencyMs: roundMs(monotonicMs() - started),
        functionRequestId: context?.awsRequestId,
        coldStart,
        xrayTraceId: traceId(line.forwardedTraceId?.(event)),
        ...dependencyFields(invocation.calls),
      };
      coldStart = false;
      const failed = line.failed ? line.failed(outcome) : outcome.error !== undefined;
      const message = typeof line.message === 'string' ? line.message : line.message[failed ? 'failed' : 'ok'];
      if (failed) writeError(message, fields, error);
      else log().info(message, fields);
    };
    return invocations.run(invocation, async () => {
      try {
        const result = await handler(event, context);
        finish({ result });
        return result;
      } catch (error) {
        finish({ error });
        throw error;
      }
    });
  };
}
