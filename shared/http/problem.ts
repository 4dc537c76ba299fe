import type { APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../config';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const statusTitle = (status: number): string => titles[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');

export const problemType = (kind: string): string => `${config.problemBaseUrl}/${kind}`;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  [extension: string]: unknown;
}

export function problem(
  status: number,
  kind: string,
  detail: string,
  instance: string,
  extensions: Record<string, unknown> = {},
): Problem {
  return { type: problemType(kind), title: statusTitle(status), status, detail, instance, ...extensions };
}

export function problemResponse(body: Problem, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode: body.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
