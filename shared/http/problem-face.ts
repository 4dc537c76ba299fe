import { clientProblemFor } from './errors';
import type { HttpFace } from './handler';
import { problem, problemResponse } from './problem';

/**
 * The face of the marketplace, usage and operator routes: every failure an
 * RFC 7807 problem, a client's fault with its status and kind
 * (shared/http/errors.ts), anything else a 500 without internals. Its own
 * module, so that a route of another face (OCTo's) loads none of it.
 */
export const problemFace: HttpFace = {
  failure: (error, { event, fields }) => {
    const instance = event.path;
    const clientProblem = clientProblemFor(error, fields);
    if (clientProblem)
      return problemResponse(problem(clientProblem.status, clientProblem.kind, clientProblem.detail, instance, clientProblem.extensions));
    return problemResponse(problem(500, 'internal', 'The server could not complete the request; it is safe to retry', instance));
  },
};
