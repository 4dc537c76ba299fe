/** Settings of the API front door, shared by the CDK stack and the local host. */

/** How long a key's authorizer result is reused; a revoked key stops working within this time. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 60;

/** The largest request body accepted: Lambda's synchronous payload limit. */
export const MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024;

/**
 * Stage-wide throttling (requests per second, burst) before API Gateway
 * answers 429: the ceiling over all keys together, above any one key's plan.
 */
export const THROTTLING = { rateLimit: 500, burstLimit: 1000 };

/**
 * The public OpenAPI document's own throttle (requests per second, burst),
 * across all its callers: it needs no key, so no usage plan limits it, and
 * on the stage's limit a flood of it would leave partners nothing. The
 * document changes only with a deployment, so a client reads it once.
 */
export const OPENAPI_THROTTLING = { rateLimit: 10, burstLimit: 20 };

/**
 * The firewall in front of the stage (AWS WAF, per client address, counted
 * over a sliding window): every request, keyed or not, is counted before the
 * authorizer runs, so random keys cost an address its own allowance and not
 * the stage's. The default per address is twice a default key's rate (50/s),
 * so a partner at its key's limit is never blocked by it; the public
 * document's allowance is small, as one read of it is enough.
 */
export const FIREWALL = { windowSeconds: 60, requestsPerAddress: 6_000, documentRequestsPerAddress: 120 };

/** The firewall's 429: WAF answers it by itself, with a fixed body (no instance) and a fixed Retry-After (its window). */
export const ADDRESS_RATE_LIMITED: GatewayProblem = {
  status: 429,
  kind: 'rate-limited',
  detail: 'Too many requests from this address; retry after the time in Retry-After',
  headers: { 'Retry-After': String(FIREWALL.windowSeconds) },
};

/** The stage every API deployment serves. */
export const API_STAGE = 'v1';

/** The usage plan of the keys with these limits; the stack makes the default one, the admin CLI the others. */
export const usagePlanName = (apiId: string, stage: string, limits: { rateLimit: number; burstLimit: number }): string =>
  `${apiId}-${stage}-rate-${limits.rateLimit}-burst-${limits.burstLimit}`;

export const FUNCTION_TIMEOUT_SECONDS = 10;

export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'THROTTLED'
  | 'REQUEST_TOO_LARGE'
  | 'INTEGRATION_TIMEOUT'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayProblem {
  status: number;
  kind: string;
  detail: string;
  headers?: Record<string, string>;
}

/**
 * Problems that API Gateway itself answers with, before or instead of a
 * function. The stack turns each into a gateway response; the local host
 * answers the same way in the same situations.
 */
export const gatewayProblems: Record<GatewayResponseType, GatewayProblem> = {
  UNAUTHORIZED: {
    status: 401,
    kind: 'unauthorized',
    detail: 'A valid API key is required, sent as Authorization: Bearer <key>',
    headers: { 'WWW-Authenticate': 'Bearer' },
  },
  ACCESS_DENIED: { status: 403, kind: 'forbidden', detail: 'The API key does not carry the scope this route requires' },
  MISSING_AUTHENTICATION_TOKEN: { status: 404, kind: 'not-found', detail: 'No route matches this method and path' },
  // API Gateway cannot compute a wait, so its 429 says one second: a token bucket of rate 1 or more refills within it.
  THROTTLED: {
    status: 429,
    kind: 'rate-limited',
    // One response for every throttle API Gateway applies: the key's usage plan, a method's own (the public document's), the stage's.
    detail: 'Too many requests for this API key (or for this route, or for the API); retry after the time in Retry-After',
    headers: { 'Retry-After': '1' },
  },
  REQUEST_TOO_LARGE: { status: 413, kind: 'payload-too-large', detail: 'The request body is too large' },
  INTEGRATION_TIMEOUT: { status: 504, kind: 'timeout', detail: 'The request took too long; it is safe to retry' },
  DEFAULT_4XX: { status: 400, kind: 'bad-request', detail: 'The request could not be accepted' },
  DEFAULT_5XX: { status: 500, kind: 'internal', detail: 'The server could not complete the request; it is safe to retry' },
};
