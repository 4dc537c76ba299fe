import { systemClock, type Clock } from './clock';

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
  /** Explicit credentials for DynamoDB Local and the local stand-ins; on Lambda the role's come from the default chain. */
  localCredentials?: { accessKeyId: string; secretAccessKey: string };
  problemBaseUrl: string;
  /** The source of "now" for every domain rule that depends on time; tests move a manual clock. */
  clock: Clock;
  /**
   * Which webhook URLs partners may register. `public-https` (the default, and
   * the only setting on AWS): https to public addresses only. `loopback-http`
   * adds http://127.0.0.1 and http://[::1], for receivers on the same machine;
   * only `configure` can set it, never the environment.
   */
  webhookTargets: WebhookTargets;
  /**
   * The ports partners' webhook URLs may use: WEBHOOK_PORTS, comma-separated
   * (`443,8443`), 443 alone unless set. A receiver on another port of a
   * public host is as reachable as a service an attacker wants probed; the
   * operator opens the ones its partners need.
   */
  webhookPorts: readonly number[];
  /** Least severe log level written; LOG_LEVEL, INFO unless set. */
  logLevel: LogLevel;
  /**
   * The queue of announcements' trailing flushes (ANNOUNCEMENT_QUEUE_URL): set
   * on the function that coalesces changes; locally the local host's queue.
   */
  announcementQueueUrl?: string;
  /** Where the local stand-ins of AWS services answer (the local host's URL); unset on Lambda. */
  localAwsEndpoint?: string;
  /**
   * The KMS key webhook signing secrets are encrypted with
   * (SIGNING_SECRETS_KEY_ARN; shared/webhooks/signing-secrets.ts): set on the
   * functions that issue secrets and on the sender; locally the local host's stand-in.
   */
  signingSecretsKey?: string;
  /** Days a booking's personal data is kept after its activity (shared/booking/retention.ts): set by `configure` only, else its own setting. */
  retentionDays?: number;
}

/** Where problem types live unless PROBLEM_BASE_URL says otherwise. */
export const DEFAULT_PROBLEM_BASE_URL = '/problems';

/** SILENT writes nothing (the tests run silent and capture what they expect). */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevelFromEnvironment(): LogLevel {
  const value = (process.env.LOG_LEVEL || 'INFO').toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${process.env.LOG_LEVEL}'`);
  }
  return value as LogLevel;
}

export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443];

/** The ports of a WEBHOOK_PORTS value (`443,8443`); a value that is not such a list fails at once. */
export function parseWebhookPorts(value: string): readonly number[] {
  const ports = value.split(',').map((port) => port.trim());
  if (!ports.every((port) => /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535)) {
    throw new Error(`WEBHOOK_PORTS must be port numbers from 1 to 65535, comma-separated, not '${value}'`);
  }
  return [...new Set(ports.map(Number))];
}

const webhookPortsFromEnvironment = () =>
  process.env.WEBHOOK_PORTS ? parseWebhookPorts(process.env.WEBHOOK_PORTS) : DEFAULT_WEBHOOK_PORTS;

export const WEBHOOK_TARGETS = ['public-https', 'loopback-http'] as const;
export type WebhookTargets = (typeof WEBHOOK_TARGETS)[number];

let current: Config | undefined;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

/** What every configuration takes from the environment, or by default, unless told otherwise. */
const environmentDefaults = (): Omit<Config, 'tableName'> => ({
  region: process.env.AWS_REGION || 'eu-west-1',
  problemBaseUrl: process.env.PROBLEM_BASE_URL || DEFAULT_PROBLEM_BASE_URL,
  logLevel: logLevelFromEnvironment(),
  clock: systemClock,
  // Never from the environment: loopback targets exist only where `configure` says so (the local host).
  webhookTargets: 'public-https',
  webhookPorts: webhookPortsFromEnvironment(),
});

function fromEnvironment(): Config {
  return {
    ...environmentDefaults(),
    tableName: required('TABLE_NAME'),
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    announcementQueueUrl: process.env.ANNOUNCEMENT_QUEUE_URL || undefined,
    signingSecretsKey: process.env.SIGNING_SECRETS_KEY_ARN || undefined,
  };
}

export function config(): Config {
  current ??= fromEnvironment();
  return current;
}

/** Sets the configuration explicitly; values not given come from the environment's defaults. */
export function configure(values: Partial<Config> & Pick<Config, 'tableName'>): Config {
  current = { ...environmentDefaults(), ...values };
  return current;
}
