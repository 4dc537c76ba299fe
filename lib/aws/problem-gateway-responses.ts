import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from '../../shared/api/problem-types';
import { gatewayProblems, type GatewayProblem, type GatewayResponseType } from '../../shared/api/gateway';
import { octoMembersOf } from '../../shared/octo/gateway-errors';

/**
 * The body of a gateway response: the same RFC 7807 problem a function would
 * answer with, and OCTo's `error` and `errorMessage` beside it, since a
 * gateway response is the API's, not a route's (shared/octo/gateway-errors.ts). API
 * Gateway substitutes $context variables in gateway response templates, so
 * the instance is filled in per request.
 */
export function problemTemplate(problem: GatewayProblem, problemBaseUrl: string): string {
  return JSON.stringify({
    type: problemTypeUri(problemBaseUrl, problem.kind),
    title: statusTitle(problem.status),
    status: problem.status,
    detail: problem.detail,
    instance: '$context.path',
    ...octoMembersOf(problem.status, problem.detail),
  });
}

/** Gateway response header values are mapping expressions, so static values are single-quoted. */
const staticHeaderValues = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));

/**
 * Makes the responses API Gateway answers by itself (no key, denied scope,
 * unknown route, throttling, ...) problem+json like everything else the API
 * returns.
 */
export function addProblemGatewayResponses(api: RestApi, problemBaseUrl: string): void {
  for (const [type, problem] of Object.entries(gatewayProblems) as [GatewayResponseType, GatewayProblem][]) {
    api.addGatewayResponse(`Problem${type}`, {
      type: ResponseType.of(type),
      statusCode: String(problem.status),
      responseHeaders: staticHeaderValues({ 'Content-Type': PROBLEM_CONTENT_TYPE, ...problem.headers }),
      templates: { 'application/json': problemTemplate(problem, problemBaseUrl) },
    });
  }
}
