import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { policyAllows } from '../../shared/http/authorizer-policy';
import { problemResponse } from '../../shared/http/problem';
import type { Clock } from '../../shared/core/clock';
import { AUTHORIZER_CACHE_TTL_SECONDS, MAX_REQUEST_BODY_BYTES } from '../../shared/api/gateway';
import { authorizerEntry, routes, type Route } from '../../shared/api/routes';
import { loadHandler } from '../../functions/load-handler';
import { authorizerCache } from './authorizer-cache';
import { gatewayProblem, gatewayResponse, requestTarget, type RequestTarget } from './http-edge';
import { lambdaContext } from './lambda-context';
import { BodyTooLarge, readBody, utf8Text } from './request-body';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';
import { createRateLimiter, rateLimited, withRateLimitHeaders } from './rate-limit';

/**
 * Plays API Gateway on one machine: matches requests against the route
 * table, runs the very same authorizer (with a bounded result cache) and
 * handlers, and answers with the same gateway problems the stack configures.
 * The host (host.ts) hands it every request that is not for the event bus,
 * the dashboard or the API reference.
 */

export interface LocalGatewayOptions {
  authorizerCacheTtlSeconds?: number;
  authorizerCacheMaxEntries?: number;
}

const STAGE = 'local';
const ARN_PREFIX = `arn:aws:execute-api:${LOCAL_REGION}:${LOCAL_ACCOUNT}:local/${STAGE}`;

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: Context) => Promise<APIGatewayAuthorizerResult>;

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

/**
 * API Gateway's single- and multi-value maps of headers or query parameters.
 * The request names the keys, so they are gathered in a Map (a name such as
 * `__proto__` or `constructor` is just a name) and handed over as API Gateway
 * hands them: plain JSON objects with those names as own properties.
 */
function singleAndMulti(entries: Iterable<[string, string]>) {
  const multi = new Map<string, string[]>();
  for (const [name, value] of entries) {
    const values = multi.get(name);
    if (values) values.push(value);
    else multi.set(name, [value]);
  }
  if (!multi.size) return { single: null, multi: null, last: () => undefined };
  return {
    // API Gateway's single-value form keeps the last value of a repeated name.
    single: Object.fromEntries([...multi].map(([name, values]) => [name, values.at(-1) as string])),
    multi: Object.fromEntries(multi),
    /** The last value of a name in any case (header names are case-insensitive). */
    last: (wanted: string) =>
      [...multi]
        .filter(([name]) => name.toLowerCase() === wanted)
        .at(-1)?.[1]
        .at(-1),
  };
}

function headerEntries(request: IncomingMessage): [string, string][] {
  const entries: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) entries.push([request.rawHeaders[i], request.rawHeaders[i + 1]]);
  return entries;
}

const HEALTHY: APIGatewayProxyResult = {
  statusCode: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ status: 'ok' }),
};

/** The route a request's method and path name, with its path parameters decoded; or API Gateway's answer when there is none. */
function matchRoute(
  compiled: CompiledRoute[],
  method: string,
  requestPath: string,
): { route: Route; pathParameters: Record<string, string> } | APIGatewayProxyResult {
  const match = compiled
    .filter(({ route }) => route.method === method)
    .map((candidate) => ({ candidate, groups: candidate.pattern.exec(requestPath) }))
    .find(({ groups }) => groups);
  if (!match?.groups) return gatewayResponse('MISSING_AUTHENTICATION_TOKEN', requestPath);
  const { route, parameterNames } = match.candidate;
  const groups = match.groups;
  try {
    return { route, pathParameters: Object.fromEntries(parameterNames.map((name, i) => [name, decodeURIComponent(groups[i + 1])])) };
  } catch {
    return problemResponse(gatewayProblem(400, 'bad-request', 'A path parameter is not valid percent-encoding', requestPath));
  }
}

/** What API Gateway knows of a matched request before it calls the authorizer and the function. */
function gatewayCall(
  request: IncomingMessage,
  target: RequestTarget,
  matched: { route: Route; pathParameters: Record<string, string> },
  clock: Clock,
) {
  const method = request.method ?? 'GET';
  const { route } = matched;
  return {
    ...matched,
    method,
    path: target.path,
    headers: singleAndMulti(headerEntries(request)),
    query: singleAndMulti(target.query.entries()),
    methodArn: `${ARN_PREFIX}/${method}${target.path}`,
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId: 'local',
      httpMethod: method,
      // The path as the client sent it, as API Gateway gives it behind a custom domain (there is no stage in the local URLs).
      path: target.path,
      protocol: `HTTP/${request.httpVersion}`,
      requestId: randomUUID(),
      requestTimeEpoch: clock().getTime(),
      resourceId: route.id,
      resourcePath: route.path,
      stage: STAGE,
      identity: { sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
    },
  };
}

type GatewayCall = ReturnType<typeof gatewayCall>;

const authorizerEvent = (call: GatewayCall) =>
  ({
    type: 'REQUEST',
    methodArn: call.methodArn,
    resource: call.route.path,
    path: call.path,
    httpMethod: call.method,
    headers: call.headers.single ?? {},
    multiValueHeaders: call.headers.multi ?? {},
    pathParameters: call.pathParameters,
    queryStringParameters: call.query.single ?? {},
    multiValueQueryStringParameters: call.query.multi ?? {},
    stageVariables: {},
    requestContext: call.requestContext,
  }) as unknown as APIGatewayRequestAuthorizerEvent;

const proxyEvent = (call: GatewayCall, body: string | null, authorized: APIGatewayAuthorizerResult) =>
  ({
    resource: call.route.path,
    path: call.path,
    httpMethod: call.method,
    headers: call.headers.single ?? {},
    multiValueHeaders: call.headers.multi ?? {},
    queryStringParameters: call.query.single,
    multiValueQueryStringParameters: call.query.multi,
    pathParameters: Object.keys(call.pathParameters).length ? call.pathParameters : null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: { ...call.requestContext, authorizer: { ...authorized.context, principalId: authorized.principalId } },
  }) as unknown as APIGatewayProxyEvent;

/** The body's bytes, or API Gateway's 413 when they pass its limit. */
async function gatewayBody(request: IncomingMessage, requestPath: string): Promise<Buffer | APIGatewayProxyResult> {
  try {
    return await readBody(request, MAX_REQUEST_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return gatewayResponse('REQUEST_TOO_LARGE', requestPath);
    throw error;
  }
}

/** The API Gateway part of the host: routes, the authorizer and its cache, the per-key token buckets, and the functions. */
export function localGateway(options: LocalGatewayOptions, clock: Clock) {
  const compiled = routes.map(compile);
  const cache = authorizerCache<APIGatewayAuthorizerResult>({
    ttlMs: (options.authorizerCacheTtlSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS) * 1000,
    maxEntries: options.authorizerCacheMaxEntries,
    clock,
  });
  const handlers = new Map<string, ProxyHandler>();
  const authorize = loadHandler<AuthorizerHandler>(authorizerEntry);
  const takeToken = createRateLimiter(clock);

  const handlerOf = (route: Route): ProxyHandler => {
    let handler = handlers.get(route.id);
    if (!handler) handlers.set(route.id, (handler = loadHandler<ProxyHandler>(route.entry)));
    return handler;
  };

  /** Like API Gateway: no identity header means 401 without calling the authorizer; results are cached per identity. */
  async function authorizerResult(event: APIGatewayRequestAuthorizerEvent, authorization: string | undefined) {
    if (!authorization) return undefined;
    const cached = cache.get(authorization);
    if (cached) return cached;
    try {
      const result = await authorize(event, lambdaContext('authorizer', clock));
      cache.set(authorization, result);
      return result;
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') return undefined;
      throw error;
    }
  }

  async function handle(request: IncomingMessage): Promise<APIGatewayProxyResult> {
    const target = requestTarget(request.url);
    if (!target) return problemResponse(gatewayProblem(400, 'bad-request', 'The request target must be a path that begins with /', '/'));
    if (request.method === 'GET' && target.path === '/health') return HEALTHY;
    const matched = matchRoute(compiled, request.method ?? 'GET', target.path);
    if ('statusCode' in matched) return matched;
    const bytes = await gatewayBody(request, target.path);
    if (!Buffer.isBuffer(bytes)) return bytes;
    const call = gatewayCall(request, target, matched, clock);

    const authorized = await authorizerResult(authorizerEvent(call), call.headers.last('authorization'));
    if (!authorized) return gatewayResponse('UNAUTHORIZED', call.path);
    if (!policyAllows(authorized.policyDocument, call.methodArn)) return gatewayResponse('ACCESS_DENIED', call.path);
    const rate = takeToken(authorized);
    if (!rate.allowed) return rateLimited(call.path, rate);

    const body = bytes.length ? utf8Text(bytes) : null;
    if (body === undefined) return problemResponse(gatewayProblem(400, 'malformed-json', 'The request body is not valid UTF-8', call.path));
    const result = await handlerOf(call.route)(proxyEvent(call, body, authorized), lambdaContext(call.route.id, clock));
    return withRateLimitHeaders(result, rate);
  }

  return { handle, authorizerCacheSize: () => cache.size };
}

export type LocalGateway = ReturnType<typeof localGateway>;
