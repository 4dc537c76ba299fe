import { ContentionError } from '../core/retry';
import { clientProblemFor } from './errors';
import type { HttpFace } from './handler';
import { problem, problemResponse } from './problem';

/** Writes that stayed contended through every retry. Contention passes within moments: the retries already spanned up to about a second. */
export const BUSY = {
  status: 503,
  kind: 'busy',
  detail:
    'Other requests were writing the same items at the same moment, and this one could not complete; it is safe to send it again after Retry-After',
  retryAfterSeconds: 1,
} as const;

/**
 * The face of the marketplace, usage and operator routes: every failure an
 * RFC 7807 problem, a client's fault with its status and kind
 * (shared/http/errors.ts), writes that stayed contended through every retry
 * a 503 with Retry-After, anything else a 500 without internals. Its own
 * module, so that a route of another face (OCTo's) loads none of it.
 */
export const problemFace: HttpFace = {
  failure: (error, { event, fields }) => {
    const instance = event.path;
    const clientProblem = clientProblemFor(error, fields);
    if (clientProblem)
      return problemResponse(problem(clientProblem.status, clientProblem.kind, clientProblem.detail, instance, clientProblem.extensions));
    if (error instanceof ContentionError) {
      return problemResponse(problem(BUSY.status, BUSY.kind, BUSY.detail, instance), { 'Retry-After': String(BUSY.retryAfterSeconds) });
    }
    return problemResponse(problem(500, 'internal', 'The server could not complete the request; it is safe to retry', instance));
  },
};
