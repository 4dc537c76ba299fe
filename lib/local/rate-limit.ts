import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import { DEFAULT_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { systemClock, type Clock } from '../../shared/core/clock';
import { gatewayResponse } from './http-edge';

/**
 * Usage-plan throttling on one machine: a token bucket per API key, as API
 * Gateway keeps one per key of a usage plan. A bucket holds `burstLimit`
 * tokens, refills at `rateLimit` tokens per second, and each request takes
 * one; a request that finds less than one token is answered 429.
 *
 * Unlike API Gateway, the local host knows each bucket, so its answers carry
 * the IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers)
 * and a Retry-After computed from the bucket.
 */
const POLICY = 'per-key';

export interface RateDecision {
  allowed: boolean;
  /** Headers for the answer, whether the request went through or was throttled. */
  headers: Record<string, string>;
}

/** The key's limits and bucket, from what the authorizer answered (see functions/auth/authorize.ts). */
function keyOf(authorized: APIGatewayAuthorizerResult) {
  const context = authorized.context ?? {};
  const positive = (value: unknown, fallback: number) => (Number(value) > 0 ? Number(value) : fallback);
  return {
    // Keys made before limits have no usage identifier; they get the default limits, bucketed by key ID.
    bucket: authorized.usageIdentifierKey ?? authorized.principalId,
    rate: positive(context.rateLimit, DEFAULT_KEY_LIMITS.rateLimit),
    burst: positive(context.burstLimit, DEFAULT_KEY_LIMITS.burstLimit),
  };
}

/**
 * Token buckets of one policy, by ID: each holds `burst` tokens, refills at
 * `rate` a second, and each request takes one.
 */
function tokenBuckets(policy: string, clock: Clock) {
  const buckets = new Map<string, { tokens: number; at: number }>();

  return function take(id: string, rate: number, burst: number): RateDecision {
    const now = clock().getTime();
    const bucket = buckets.get(id) ?? { tokens: burst, at: now };
    const available = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    const allowed = available >= 1;
    const left = allowed ? available - 1 : available;
    buckets.set(id, { tokens: left, at: now });
    const headers: Record<string, string> = {
      // The bucket as a quota: `burst` requests, refilled in full within w seconds.
      'RateLimit-Policy': `"${policy}";q=${burst};w=${Math.max(1, Math.ceil(burst / rate))}`,
      RateLimit: `"${policy}";r=${Math.floor(left)};t=${Math.ceil((burst - left) / rate)}`,
    };
    // Whole seconds until one token is back: HTTP's Retry-After has no fractions, so never less than 1.
    if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((1 - left) / rate)));
    return { allowed, headers };
  };
}

export function createRateLimiter(clock: Clock = systemClock) {
  const take = tokenBuckets(POLICY, clock);
  return (authorized: APIGatewayAuthorizerResult): RateDecision => {
    const { bucket, rate, burst } = keyOf(authorized);
    return take(bucket, rate, burst);
  };
}

/**
 * The throttle of a method of its own (the stage's method settings): one
 * bucket that every caller of the method shares, keyed or not.
 */
export function methodThrottle(limits: { rateLimit: number; burstLimit: number }, clock: Clock = systemClock) {
  const take = tokenBuckets('per-method', clock);
  return (): RateDecision => take('method', limits.rateLimit, limits.burstLimit);
}

/** The 429 API Gateway answers (shared/api/gateway.ts), with this bucket's headers. */
export const rateLimited = (instance: string, decision: RateDecision): APIGatewayProxyResult =>
  gatewayResponse('THROTTLED', instance, decision.headers);

export const withRateLimitHeaders = (result: APIGatewayProxyResult, decision: RateDecision): APIGatewayProxyResult => ({
  ...result,
  headers: { ...result.headers, ...decision.headers },
});
