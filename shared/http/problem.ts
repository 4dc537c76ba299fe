import type { APIGatewayProxyResult } from 'aws-lambda';
import { config } from '../core/config';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from '../api/problem-types';
import { gatewayErrorCode } from '../api/gateway';

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

/** A refusal the gateway answers by itself, for every route alike: the problem, with OCTo's `error` and `errorMessage` too. */
export const gatewayProblem = (status: number, kind: string, detail: string, instance: string): Problem =>
  problem(status, kind, detail, instance, { error: gatewayErrorCode(status), errorMessage: detail });

export function problemResponse(body: Problem, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode: body.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
