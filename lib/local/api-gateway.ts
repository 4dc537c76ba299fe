import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { policyAllows } from '../../shared/http/authorizer-policy';
import { problem, problemResponse } from '../../shared/http/problem';
import { statusTitle } from '../../shared/api/problem-types';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  FUNCTION_TIMEOUT_SECONDS,
  MAX_REQUEST_BODY_BYTES,
  gatewayProblems,
  type GatewayResponseType,
} from '../../shared/api/gateway';
import { createLocalEventBus, type LocalEventBus, type LocalEventBusOptions } from './event-bus';
import { createLocalScheduler, type LocalScheduler, type LocalSchedulerOptions } from './scheduler';
import { configureLocalQueue, createLocalWebhookQueue, type LocalWebhookQueue } from './webhook-queue';
import { serveDashboard, servesDashboard } from './dashboard';
import { serveDocs, servesDocs } from './docs';
import { createRateLimiter, rateLimited, withRateLimitHeaders } from './rate-limit';
import type { Clock } from '../../shared/core/clock';
import { authorizerEntry, routes, type Route } from '../../shared/api/routes';
import { loadHandler } from '../../functions/load-handler';

/**
 * Plays API Gateway on one machine: matches requests against the route
 * table, runs the very same authorizer (with a result cache) and handlers,
 * and answers with the same gateway problems the stack configures. EventBridge
 * PutEvents calls to the same port go to the local event bus.
 */

const STAGE = 'local';
const ARN_PREFIX = `arn:aws:execute-api:local:000000000000:local/${STAGE}`;

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;


interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  parameterNames: string[];
}

function compile(route: Route): CompiledRoute {
  const parameterNames: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
    parameterNames.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), parameterNames };
}

function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + FUNCTION_TIMEOUT_SECONDS * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
}

function singleAndMulti(entries: Iterable<[string, string]>) {
  const multi: Record<string, string[]> = {};
  for (const [name, value] of entries) (multi[name] ??= []).push(value);
  const names = Object.keys(multi);
  if (!names.length) return { single: null, multi: null };
  // API Gateway's single-value form keeps the last value of a repeated name.
  return { single: Object.fromEntries(names.map((name) => [name, multi[name].at(-1) as string])), multi };
}

function headerEntries(request: IncomingMessage): [string, string][] {
  const entries: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) entries.push([request.rawHeaders[i], request.rawHeaders[i + 1]]);
  return entries;
}

function send(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

const gatewayProblem = (type: GatewayResponseType, instance: string): APIGatewayProxyResult => {
  const { status, kind, detail, headers } = gatewayProblems[type];
  return problemResponse(problem(status, kind, detail, instance), headers);
};

export interface LocalHostOptions {
  port?: number;
  host?: string;
  authorizerCacheTtlSeconds?: number;
  eventBus?: LocalEventBusOptions;
  scheduler?: LocalSchedulerOptions;
  /** Time of the per-key token buckets (rate-limit.ts). */
  clock?: Clock;
}

export interface LocalHost {
  url: string;
  server: Server;
  /** EventBridge's PutEvents on the same port (see lib/local-event-bus.ts). */
  eventBus: LocalEventBus;
  /** SQS's SendMessage calls to the same port, drained by the webhook sender in process (see lib/local/webhook-queue.ts). */
  webhookQueue: LocalWebhookQueue;
  /** The scheduled functions (see lib/local/scheduler.ts). */
  scheduler: LocalScheduler;
  close(): Promise<void>;
}

export async function startLocalHost(options: LocalHostOptions = {}): Promise<LocalHost> {
  const compiled = routes.map(compile);
  const cacheTtlMs = (options.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS) * 1000;
  const authorizerCache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const handlers = new Map<string, ProxyHandler>();
  const authorize = loadHandler<AuthorizerHandler>(authorizerEntry);
  const takeToken = createRateLimiter(options.clock);

  const handlerOf = (route: Route): ProxyHandler => {
    let handler = handlers.get(route.id);
    if (!handler) handlers.set(route.id, (handler = loadHandler<ProxyHandler>(route.entry)));
    return handler;
  };

  /** Like API Gateway: no identity header means 401 without calling the authorizer; results are cached per header value. */
  async function authorizerResult(event: APIGatewayRequestAuthorizerEvent, authorization: string | undefined) {
    if (!authorization) return undefined;
    const cached = authorizerCache.get(authorization);
    if (cached && cached.expires > Date.now()) return cached.result;
    try {
      const result = await authorize(event);
      if (cacheTtlMs > 0) authorizerCache.set(authorization, { result, expires: Date.now() + cacheTtlMs });
      return result;
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') return undefined;
      throw error;
    }
  }

  async function handle(request: IncomingMessage): Promise<APIGatewayProxyResult> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    const requestPath = url.pathname;
    if (method === 'GET' && requestPath === '/health') {
      return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 'ok' }) };
    }
    const match = compiled
      .filter(({ route }) => route.method === method)
      .map((candidate) => ({ candidate, groups: candidate.pattern.exec(requestPath) }))
      .find(({ groups }) => groups);
    if (!match?.groups) return gatewayProblem('MISSING_AUTHENTICATION_TOKEN', requestPath);
    const { route, parameterNames } = match.candidate;

    let pathParameters: Record<string, string>;
    try {
      pathParameters = Object.fromEntries(parameterNames.map((name, i) => [name, decodeURIComponent(match.groups![i + 1])]));
    } catch {
      return problemResponse(problem(400, 'bad-request', 'A path parameter is not valid percent-encoding', requestPath));
    }
    let body: string | null;
    try {
      body = await readBody(request);
    } catch (error) {
      if (error instanceof BodyTooLarge) return gatewayProblem('REQUEST_TOO_LARGE', requestPath);
      throw error;
    }
    const headers = singleAndMulti(headerEntries(request));
    const query = singleAndMulti(url.searchParams.entries());
    const methodArn = `${ARN_PREFIX}/${method}${requestPath}`;
    const authorization = Object.entries(headers.single ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    const requestContextBase = {
      accountId: '000000000000',
      apiId: 'local',
      httpMethod: method,
      path: `/${STAGE}${requestPath}`,
      protocol: `HTTP/${request.httpVersion}`,
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: route.id,
      resourcePath: route.path,
      stage: STAGE,
      identity: { sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
    };

    const authorizerEvent = {
      type: 'REQUEST',
      methodArn,
      resource: route.path,
      path: requestPath,
      httpMethod: method,
      headers: headers.single ?? {},
      multiValueHeaders: headers.multi ?? {},
      pathParameters,
      queryStringParameters: query.single ?? {},
      multiValueQueryStringParameters: query.multi ?? {},
      stageVariables: {},
      requestContext: requestContextBase,
    } as unknown as APIGatewayRequestAuthorizerEvent;
    const authorized = await authorizerResult(authorizerEvent, authorization);
    if (!authorized) return gatewayProblem('UNAUTHORIZED', requestPath);
    if (!policyAllows(authorized.policyDocument, methodArn)) return gatewayProblem('ACCESS_DENIED', requestPath);
    const rate = takeToken(authorized);
    if (!rate.allowed) return rateLimited(requestPath, rate);

    const event = {
      resource: route.path,
      path: requestPath,
      httpMethod: method,
      headers: headers.single ?? {},
      multiValueHeaders: headers.multi ?? {},
      queryStringParameters: query.single,
      multiValueQueryStringParameters: query.multi,
      pathParameters: parameterNames.length ? pathParameters : null,
      stageVariables: null,
      body,
      isBase64Encoded: false,
      requestContext: { ...requestContextBase, authorizer: { ...authorized.context, principalId: authorized.principalId } },
    } as unknown as APIGatewayProxyEvent;
    return withRateLimitHeaders(await handlerOf(route)(event, lambdaContext(route.id)), rate);
  }

  const eventBus = createLocalEventBus(options.eventBus);
  const webhookQueue = createLocalWebhookQueue();
  const server = createServer((request, response) => {
    if (eventBus.accepts(request)) {
      void eventBus.serve(request, response);
      return;
    }
    if (webhookQueue.accepts(request)) {
      void webhookQueue.serve(request, response);
      return;
    }
    if (servesDashboard(request)) {
      void serveDashboard(request, response);
      return;
    }
    if (servesDocs(request)) return serveDocs(request, response);
    handle(request)
      .then((result) => send(response, result))
      .catch((error) => {
        console.error(JSON.stringify({ level: 'error', message: 'Local host failure', error: String(error?.stack ?? error) }));
        send(response, gatewayProblem('DEFAULT_5XX', request.url ?? '/'));
      });
  });
  // Requests Node refuses before any handler sees them (headers over 16 KB, broken HTTP) still get a problem.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const detail = tooLarge ? 'The request line and headers are too large' : 'The request is not valid HTTP';
    const body = JSON.stringify(problem(status, tooLarge ? 'headers-too-large' : 'bad-request', detail, '/'));
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  configureLocalQueue(url);
  const scheduler = createLocalScheduler(options.scheduler);
  return {
    url,
    server,
    eventBus,
    webhookQueue,
    scheduler,
    close: async () => {
      await scheduler.stop();
      // Events and messages already accepted are handled before the host goes away, as EventBridge and SQS would.
      await eventBus.idle();
      await webhookQueue.idle();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
