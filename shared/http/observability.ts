import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { PROBLEM_CONTENT_TYPE } from '../api/problem-types';
import { log, type Fields, type InvocationLine } from '../core/observability';

/**
 * The line of an HTTP function (shared/core/observability.ts writes it): one
 * per request, at INFO, or at ERROR with the error and its stack when the
 * answer is a 5xx. At DEBUG each request also writes `Request received`.
 */

/** Headers worth seeing at DEBUG; every other header stays out of the logs. */
const LOGGED_HEADERS = new Set(['accept', 'content-type', 'content-length', 'user-agent']);

type HttpEvent = Omit<APIGatewayProxyEvent, 'body'> & { body: unknown };

function problemTypeOf(response: APIGatewayProxyResult | undefined): string | undefined {
  if (response?.headers?.['Content-Type'] !== PROBLEM_CONTENT_TYPE) return undefined;
  try {
    return (JSON.parse(response.body) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

const headerValue = (event: HttpEvent, name: string) =>
  Object.entries(event.headers ?? {}).find(([header]) => header.toLowerCase() === name)?.[1];

export function logReceived(event: HttpEvent): void {
  log().debug('Request received', {
    method: event.httpMethod,
    path: event.path,
    query: event.queryStringParameters,
    headers: Object.fromEntries(Object.entries(event.headers ?? {}).filter(([name]) => LOGGED_HEADERS.has(name.toLowerCase()))),
    requestId: event.requestContext?.requestId,
  });
}

export const requestLine = (route: string): InvocationLine<HttpEvent, APIGatewayProxyResult> => ({
  message: 'Request',
  fields: (event, { result }): Fields => {
    const authorizer = event.requestContext?.authorizer;
    return {
      route,
      method: event.httpMethod,
      path: event.path,
      status: result?.statusCode ?? 500,
      operatorId: authorizer?.operatorId,
      keyId: authorizer?.keyId,
      requestId: event.requestContext?.requestId,
      problemType: problemTypeOf(result),
    };
  },
  failed: ({ result }) => (result?.statusCode ?? 500) >= 500,
  forwardedTraceId: (event) => headerValue(event, 'x-amzn-trace-id'),
});
