import { DEFAULT_PROBLEM_BASE_URL } from '../api/problem-types';

/**
 * Runtime configuration, read once. On Lambda it comes from the function's
 * environment on first use, and a missing value fails that first use with a
 * clear error. The local entry points (npm start, the admin CLI, the tests)
 * call `configure` with explicit values before anything reaches a table.
 */
export interface Config {
  tableName: string;
  region: string;
  /** Set to reach DynamoDB Local; unset on Lambda. */
  dynamoEndpoint?: string;
  /** Explicit credentials for DynamoDB Local; on Lambda the role's come from the default chain. */
  dynamoCredentials?: { accessKeyId: string; secretAccessKey: string };
  problemBaseUrl: string;
  /** Least severe log level written; LOG_LEVEL, INFO unless set. */
  logLevel: LogLevel;
}

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevelFromEnvironment(): LogLevel {
  const value = (process.env.LOG_LEVEL || 'INFO').toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${process.env.LOG_LEVEL}'`);
  }
  return value as LogLevel;
}

let current: Config | undefined;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

function fromEnvironment(): Config {
  return {
    tableName: required('TABLE_NAME'),
    region: process.env.AWS_REGION || 'eu-west-1',
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    problemBaseUrl: process.env.PROBLEM_BASE_URL || DEFAULT_PROBLEM_BASE_URL,
    logLevel: logLevelFromEnvironment(),
  };
}

export function config(): Config {
  current ??= fromEnvironment();
  return current;
}

/** Sets the configuration explicitly; values not given come from the environment's defaults. */
export function configure(values: Partial<Config> & Pick<Config, 'tableName'>): Config {
  current = {
    region: process.env.AWS_REGION || 'eu-west-1',
    problemBaseUrl: process.env.PROBLEM_BASE_URL || DEFAULT_PROBLEM_BASE_URL,
    logLevel: logLevelFromEnvironment(),
    ...values,
  };
  return current;
}
