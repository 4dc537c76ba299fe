import type { APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../core/config';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from '../api/problem-types';

export { PROBLEM_CONTENT_TYPE };

export const problemType = (kind: string): string => problemTypeUri(config().problemBaseUrl, kind);

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  [extension: string]: unknown;
}

export function problem(status: number, kind: string, detail: string, instance: string, extensions: Record<string, unknown> = {}): Problem {
  return { type: problemType(kind), title: statusTitle(status), status, detail, instance, ...extensions };
}

export function problemResponse(body: Problem, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode: body.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
