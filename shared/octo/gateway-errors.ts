import type { OctoErrorCode } from './schemas/answers';

/**
 * OCTo's `error` code of a refusal the gateway (or the local host in its
 * place) answers by itself. A gateway response cannot tell the OCTo routes
 * from the others, so each of its bodies is an RFC 7807 problem that also
 * carries OCTo's `error` and `errorMessage` (RFC 7807 allows extension
 * members): a reseller's client reads OCTo's fields, every other client its problem.
 */
export function gatewayErrorCode(status: number): OctoErrorCode {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 429) return 'TOO_MANY_REQUESTS';
  return status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
}

/** OCTo's members of a gateway refusal's problem. */
export const octoMembersOf = (status: number, detail: string): { error: OctoErrorCode; errorMessage: string } => ({
  error: gatewayErrorCode(status),
  errorMessage: detail,
});
