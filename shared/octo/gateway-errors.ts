import type { OctoErrorCode } from './schemas/answers';

/**
 * OCTo's `error` code of a refusal the gateway (or the local host in its
 * place) answers by itself. A gateway response cannot tell the OCTo routes
 * from the others, so each of its bodies is an RFC 7807 problem that also
 * carries OCTo's `error` and `errorMessage` (RFC 7807 allows extension
 * members): a reseller's client reads OCTo's fields, every other client its
 * problem. An unknown route is the exception: it is no OCTo request at all,
 * and OCTo has no word for a not-found (an unknown ID is a 400), so its
 * problem carries none of OCTo's members.
 */
export function gatewayErrorCode(status: number): OctoErrorCode | undefined {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return undefined;
  if (status === 429) return 'TOO_MANY_REQUESTS';
  return status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
}

/** OCTo's members of a gateway refusal's problem, when it has any. */
export function octoMembersOf(status: number, detail: string): { error: OctoErrorCode; errorMessage: string } | Record<string, never> {
  const error = gatewayErrorCode(status);
  return error ? { error, errorMessage: detail } : {};
}
