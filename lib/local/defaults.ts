/** Defaults of the one-machine setup (npm start, the admin CLI without --aws), and the settings that change them. */
export const LOCAL_TABLE_NAME = 'ota-usage-local';
export const LOCAL_DYNAMODB_PORT = 8000;
export const LOCAL_DATA_DIR = '.data/dynamodb';
/** The local KMS key's file in the data directory (lib/local/kms.ts): the table's webhook signing secrets are encrypted with it. */
export const LOCAL_KMS_KEY_FILE = 'local-kms-key';
export const LOCAL_HTTP_PORT = 3000;
/** The local host listens on the loopback interface only, unless HOST says otherwise. */
export const LOCAL_HTTP_HOST = '127.0.0.1';
/**
 * DynamoDB Local accepts any credentials; these are the ones the one-machine
 * setup uses, and the only ones the local event bus accepts on PutEvents.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** The account and region in the ARNs and events of the one-machine setup. */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = process.env.AWS_REGION || 'local';

/**
 * The background work as it runs on AWS, for `npm start` (and the bench's
 * live host): holds expired and webhooks retried every minute, as the stack's
 * schedules do; the table's stream read four times a second, as Lambda reads
 * a stream; announcements' trailing flushes handed over once their delay has
 * passed, as SQS does.
 */
export const BACKGROUND_AS_ON_AWS = {
  scheduler: { intervalMs: 60_000 },
  tableStream: { pollMs: 250 },
  queue: { pollMs: 100 },
} as const;

/** What the one-machine setup runs, where, as the environment sets it. */
export interface LocalSettings {
  tableName: string;
  /** The port `npm start` starts DynamoDB Local on (0: any free port). */
  dynamoDbPort: number;
  /** A DynamoDB already running, used instead of starting DynamoDB Local; else undefined. */
  existingDynamoDb?: string;
  /** Where the table is reached: the DynamoDB already running, else DynamoDB Local on its port. */
  dynamoDbEndpoint: string;
  /** The interface and port the local host listens on (port 0: any free port). */
  httpHost: string;
  httpPort: number;
  /** Where the local host's API (and its event bus) is reached from this machine. */
  apiUrl: string;
}

/** The address to connect to for a listening address: a wildcard one is reached on the loopback interface. */
function reachableHost(listening: string): string {
  if (listening === '0.0.0.0') return '127.0.0.1';
  if (listening === '::') return '[::1]';
  return listening.includes(':') ? `[${listening}]` : listening;
}

/**
 * The settings `npm start` takes (TABLE_NAME, DYNAMODB_LOCAL_PORT,
 * DYNAMODB_ENDPOINT, HOST, PORT), read here for `npm start` and the admin
 * CLI alike, so that one environment points both at the same service.
 */
export function localSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const dynamoDbPort = Number(env.DYNAMODB_LOCAL_PORT || LOCAL_DYNAMODB_PORT);
  const existingDynamoDb = env.DYNAMODB_ENDPOINT || undefined;
  const httpHost = env.HOST || LOCAL_HTTP_HOST;
  const httpPort = Number(env.PORT || LOCAL_HTTP_PORT);
  return {
    tableName: env.TABLE_NAME || LOCAL_TABLE_NAME,
    dynamoDbPort,
    existingDynamoDb,
    dynamoDbEndpoint: existingDynamoDb ?? `http://127.0.0.1:${dynamoDbPort}`,
    httpHost,
    httpPort,
    apiUrl: `http://${reachableHost(httpHost)}:${httpPort}`,
  };
}
