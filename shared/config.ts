import { DEFAULT_PROBLEM_BASE_URL } from './http/problem-types';

/**
 * Runtime configuration, read once when the module loads. A missing required
 * value fails at cold start rather than on the first request that needs it.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export const config = {
  tableName: required('TABLE_NAME'),
  /** Set locally to reach DynamoDB Local; unset on Lambda. */
  dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  region: process.env.AWS_REGION || 'eu-west-1',
  problemBaseUrl: process.env.PROBLEM_BASE_URL || DEFAULT_PROBLEM_BASE_URL,
} as const;
