import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from '../../shared/api/problem-types';
import { gatewayProblems, type GatewayProblem, type GatewayResponseType } from '../../shared/api/gateway';
import { octoMembersOf } from '../../shared/octo/gateway-errors';

/**
 * The body of a refusal the front door answers by itself: the same RFC 7807
 * problem a function would answer with, and OCTo's `error` and
 * `errorMessage` beside it, since such a refusal is the API's, not a route's
 * (shared/octo/gateway-errors.ts). `instance` when the answering service can
 * fill it in per request.
 */
export const frontDoorProblem = (problem: GatewayProblem, problemBaseUrl: string, instance?: string): string =>
  JSON.stringify({
    type: problemTypeUri(problemBaseUrl, problem.kind),
    title: statusTitle(problem.status),
    status: problem.status,
    detail: problem.detail,
    ...(instance === undefined ? {} : { instance }),
    ...octoMembersOf(problem.status, problem.detail),
  });

/** A gateway response's body: API Gateway substitutes $context variables in its templates, so the instance is filled in per request. */
export const problemTemplate = (problem: GatewayProblem, problemBaseUrl: string): string =>
  frontDoorProblem(problem, problemBaseUrl, '$context.path');

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
