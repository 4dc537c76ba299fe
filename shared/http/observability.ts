import type { MiddlewareObj } from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context, EventBridgeEvent } from 'aws-lambda';
import { METRIC_NAMESPACE, OUTCOME_DIMENSION, SERVICE_NAME } from '../api/metrics';
import { PROBLEM_CONTENT_TYPE } from '../api/problem-types';
import { config, type LogLevel } from '../core/config';
import { publishBusinessEventsTo } from '../core/metrics';
import { instrumentDynamoDbClient } from '../db/client';

/**
 * Logs, metrics and traces of every function, with Powertools for AWS Lambda,
 * as two middleware sets: `observedRequests` for the HTTP handler builder and
 * `observedEvents` for the platform-event handler.
 *
 * Every log line of a request is self-contained: its fields are passed with
 * the line instead of being appended to the shared logger, and every business
 * metric is its own EMF document (`singleMetric`). One Lambda container runs
 * one request at a time, but the local host runs all handlers in one process,
 * concurrently, and a line must never carry another request's IDs.
 *
 * What is never logged: request bodies, and every header but a few harmless
 * ones; the Authorization header and Idempotency-Key values above all.
 */
const logger = new Logger({ serviceName: SERVICE_NAME });
export const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });
const metrics = new Metrics({ namespace: METRIC_NAMESPACE, serviceName: SERVICE_NAME });

publishBusinessEventsTo(({ metric, outcome, operatorId, count }) => {
  const single = metrics.singleMetric();
  single.addDimension(OUTCOME_DIMENSION, outcome);
  if (operatorId) single.addMetadata('operatorId', operatorId);
  single.addMetric(metric, MetricUnit.Count, count);
});
// Each DynamoDB call becomes an X-Ray subsegment (a no-op where tracing is off, as it is off Lambda).
instrumentDynamoDbClient((client) => tracer.captureAWSv3Client(client));

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

/** Headers worth seeing at DEBUG; every other header stays out of the logs. */
const LOGGED_HEADERS = new Set(['accept', 'content-type', 'content-length', 'user-agent']);

const traceIdFromHeader = (headers: Record<string, string | undefined> | null) =>
  /Root=([^;]+)/.exec(Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'x-amzn-trace-id')?.[1] ?? '')?.[1];

/** Fields of the invocation; the trace ID is Lambda's, else the one API Gateway forwarded (tracing on the stage). */
function invocationFields(context: Context | undefined, coldStart: boolean, forwardedTraceId?: string) {
  return {
    functionRequestId: context?.awsRequestId,
    coldStart,
    xrayTraceId: tracer.getRootXrayTraceId() ?? forwardedTraceId,
  };
}

const elapsedMs = (startedAt: WeakMap<object, number>, key: object) =>
  Math.round((performance.now() - (startedAt.get(key) ?? performance.now())) * 100) / 100;

function problemTypeOf(response: APIGatewayProxyResult | undefined): string | undefined {
  if (response?.headers?.['Content-Type'] !== PROBLEM_CONTENT_TYPE) return undefined;
  try {
    return (JSON.parse(response.body) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

type HttpEvent = Omit<APIGatewayProxyEvent, 'body'> & { body: unknown };

/** One line per request, at INFO, or at ERROR with the error and its stack when the answer is a 5xx. */
function requestLogger(route: string): MiddlewareObj<HttpEvent, APIGatewayProxyResult> {
  let coldStart = true;
  const startedAt = new WeakMap<object, number>();
  const logRequest = (request: { event: HttpEvent; context: Context; response: APIGatewayProxyResult | null; error: unknown }) => {
    const { event, context, response } = request;
    const status = response?.statusCode ?? 500;
    const authorizer = event.requestContext?.authorizer;
    const line = {
      route,
      method: event.httpMethod,
      path: event.path,
      status,
      latencyMs: elapsedMs(startedAt, event),
      operatorId: authorizer?.operatorId,
      keyId: authorizer?.keyId,
      requestId: event.requestContext?.requestId,
      ...invocationFields(context, coldStart, traceIdFromHeader(event.headers)),
      problemType: problemTypeOf(response ?? undefined),
    };
    coldStart = false;
    if (status >= 500) logger.error('Request', { ...line, error: request.error });
    else logger.info('Request', line);
  };
  return {
    before: (request) => {
      startedAt.set(request.event, performance.now());
      const headers = Object.fromEntries(
        Object.entries(request.event.headers ?? {}).filter(([name]) => LOGGED_HEADERS.has(name.toLowerCase())),
      );
      log().debug('Request received', {
        method: request.event.httpMethod,
        path: request.event.path,
        query: request.event.queryStringParameters,
        headers,
        requestId: request.event.requestContext?.requestId,
      });
    },
    after: (request) => logRequest(request),
    // Registered first, so this runs after the problem middleware has answered the error.
    onError: (request) => logRequest(request),
  };
}

/** The observability of an HTTP handler: the request line, and the invocation as an X-Ray segment. */
export const observedRequests = (route: string): MiddlewareObj<HttpEvent, APIGatewayProxyResult>[] => [
  requestLogger(route),
  captureLambdaHandler(tracer, { captureResponse: false }) as MiddlewareObj<HttpEvent, APIGatewayProxyResult>,
];

/** What an event handler answers: a few fields for its log line. */
export type EventOutcome = Record<string, string | number | boolean | undefined>;

/** One line per platform event (its ID, source and detail-type, and what became of it); failures with their stack. */
function eventLogger(): MiddlewareObj<EventBridgeEvent<string, unknown>, EventOutcome> {
  let coldStart = true;
  const startedAt = new WeakMap<object, number>();
  const fields = (request: { event: EventBridgeEvent<string, unknown>; context: Context }) => {
    const line = {
      eventId: request.event.id,
      source: request.event.source,
      detailType: request.event['detail-type'],
      latencyMs: elapsedMs(startedAt, request.event),
      ...invocationFields(request.context, coldStart),
    };
    coldStart = false;
    return line;
  };
  return {
    before: (request) => {
      log();
      startedAt.set(request.event, performance.now());
    },
    after: (request) => logger.info('Platform event', { ...fields(request), ...request.response }),
    onError: (request) =>
      logger.error('Platform event not recorded', {
        ...fields(request),
        // False for events bound for the dead-letter queue whatever happens (malformed, unknown operator).
        retryable: (request.error as { retryable?: boolean } | null)?.retryable ?? true,
        error: request.error,
      }),
  };
}

export const observedEvents = (): MiddlewareObj<EventBridgeEvent<string, unknown>, EventOutcome>[] => [
  eventLogger(),
  captureLambdaHandler(tracer, { captureResponse: false }) as MiddlewareObj<EventBridgeEvent<string, unknown>, EventOutcome>,
];
