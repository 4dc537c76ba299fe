import type { Caller } from '../core/caller';

/**
 * The caller as the authorizer established it. API Gateway passes the
 * authorizer's context to the function as flat strings (or numbers); these
 * convert both ways.
 */

export type AuthorizerContext = Record<Exclude<keyof Caller, 'holdCaps'>, string> & {
  maxHeldPlacesPerTimeslot?: number;
  maxHeldPlaces?: number;
};

export const toAuthorizerContext = (caller: Caller): AuthorizerContext => ({
  operatorId: caller.operatorId,
  keyId: caller.keyId,
  scopes: caller.scopes.join(' '),
  timeZone: caller.timeZone,
  ...(caller.holdCaps ? { maxHeldPlacesPerTimeslot: caller.holdCaps.perTimeslot, maxHeldPlaces: caller.holdCaps.total } : {}),
});

/** A positive count of the context, as API Gateway may hand it: a number or its text. */
const count = (value: unknown): number | undefined => (Number(value) > 0 ? Number(value) : undefined);

export function fromAuthorizerContext(context: Partial<Record<string, unknown>> | null | undefined): Caller {
  const { operatorId, keyId, scopes, timeZone, maxHeldPlacesPerTimeslot, maxHeldPlaces } = context ?? {};
  if (typeof operatorId !== 'string' || typeof keyId !== 'string' || typeof timeZone !== 'string') {
    // Only reachable when a route is deployed without the authorizer: a wiring fault, not a client error.
    throw new Error('Request reached a handler without an authorizer context');
  }
  const [perTimeslot, total] = [count(maxHeldPlacesPerTimeslot), count(maxHeldPlaces)];
  return {
    operatorId,
    keyId,
    timeZone,
    scopes: typeof scopes === 'string' && scopes ? scopes.split(' ') : [],
    // An answer cached from before caps existed has none: the booking domain applies the defaults.
    ...(perTimeslot && total ? { holdCaps: { perTimeslot, total } } : {}),
  };
}
