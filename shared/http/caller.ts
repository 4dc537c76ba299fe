import type { Caller } from '../core/caller';

/**
 * The caller as the authorizer established it. API Gateway passes the
 * authorizer's context to the function as flat strings; these convert both ways.
 */

export type AuthorizerContext = Record<keyof Caller, string>;

export const toAuthorizerContext = (caller: Caller): AuthorizerContext => ({
  operatorId: caller.operatorId,
  keyId: caller.keyId,
  scopes: caller.scopes.join(' '),
  timeZone: caller.timeZone,
});

export function fromAuthorizerContext(context: Partial<Record<string, unknown>> | null | undefined): Caller {
  const { operatorId, keyId, scopes, timeZone } = context ?? {};
  if (typeof operatorId !== 'string' || typeof keyId !== 'string' || typeof timeZone !== 'string') {
    // Only reachable when a route is deployed without the authorizer: a wiring fault, not a client error.
    throw new Error('Request reached a handler without an authorizer context');
  }
  return { operatorId, keyId, timeZone, scopes: typeof scopes === 'string' && scopes ? scopes.split(' ') : [] };
}
