import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LOCAL_CREDENTIALS, LOCAL_DYNAMODB_PORT, LOCAL_HTTP_PORT, LOCAL_TABLE_NAME, localSettings } from '../lib/local/defaults';
import { emitSampleEvents } from '../lib/aws/sample-events';
import { DEMO_OPERATOR, seedDemo } from '../lib/local/demo-data';
import { awaitCommits } from '../lib/local/dynamodb-local';
import * as apiKeys from '../shared/accounts/api-keys';
import * as operators from '../shared/accounts/operators';
import { cancelOperatorBooking } from '../shared/booking/cancellation';
import { recordOperatorBooking } from '../shared/booking/operator-bookings';
import { importCatalog } from '../shared/catalog/import-catalog';
import { configure } from '../shared/core/config';
import { checkNumbersAsSent } from '../shared/core/json-numbers';
import { attributeClient } from '../shared/db/client';
import { rebuildUsageAggregates } from '../shared/usage/rebuild';
import { voidUsageEntry } from '../shared/usage/void-entry';
import { revokePartnerKey } from '../shared/webhooks/key-revocation';
import { webhookOf } from '../shared/webhooks/endpoints';
import type { WebhookEndpoint } from '../shared/webhooks/schemas';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { API_STAGE, usagePlanName } from '../shared/api/gateway';
import { DEFAULT_KEY_LIMITS } from '../shared/accounts/api-keys';
import { checkHoldCaps, DEFAULT_HOLD_CAPS, holdCapsOf, type HoldCaps } from '../shared/accounts/hold-caps';
import { createGatewayKey, deleteGatewayKey, moveGatewayKey, type ApiTarget } from '../lib/aws/gateway-keys';
import { DomainError, violationsOf } from '../shared/core/errors';
import { personalDataCommands } from './admin-personal-data';
import { timeslotCommands } from './admin-timeslots';
import { usageLimitCommands } from './admin-usage-limits';
import { webhookCommands } from './admin-webhooks';
import { LOCAL_SIGNING_KEY_ARN } from '../lib/local/kms';

/** `1 product`, `2 products`. */
const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * The operator's admin CLI. Without --aws it talks to the service of
 * `npm start` (its table on DynamoDB Local, its event bus), found by the same
 * settings `npm start` reads; with --aws --table NAME it talks to a deployed
 * table using the usual AWS credentials and region.
 */
const USAGE = `Usage: npm run admin -- <command> [options] [--aws --table NAME]

Commands:
  create-operator   --id ID --name NAME --time-zone ZONE
  create-key        --operator ID --scopes ota,usage:read,... [--name LABEL]
                    [--rate REQUESTS_PER_SECOND --burst REQUESTS]  (default ${DEFAULT_KEY_LIMITS.rateLimit} and ${DEFAULT_KEY_LIMITS.burstLimit})
                    [--max-held-places-per-timeslot PLACES --max-held-places PLACES]
                    (the places the key may hold at once, unconfirmed: default ${DEFAULT_HOLD_CAPS.perTimeslot} and ${DEFAULT_HOLD_CAPS.total})
  set-key-limits    --operator ID --key KEY_ID [--rate REQUESTS_PER_SECOND --burst REQUESTS]
                    [--max-held-places-per-timeslot PLACES --max-held-places PLACES]
  list-keys         --operator ID
  revoke-key        --operator ID --key KEY_ID
  import-catalog    --operator ID --file catalog.json   (also as import-catalogue)
  seed-demo         (the demo operator and catalogue that npm start seeds)
  record-booking    --operator ID --channel online|pos --file booking.json
                    (one booking, or a list of them, as in the partner API's booking body)
  rebuild-usage-aggregates --operator ID
                    (recomputes the operator's hour, day and month usage aggregates from
                    its stored entries, and registers the meters they name: after an
                    upgrade that adds aggregate levels or counts meters, or to repair
                    drift; run it while the operator records nothing)
  void-usage-entry  --operator ID --id ENTRY_ID
                    (takes one usage entry out of every total, built-in ones included: the
                    API refuses to void an entry a platform event recorded; voiding again
                    changes nothing)
  put-usage-limit   --operator ID --limit LIMIT_ID --file limit.json
                    (creates or changes a usage limit: the file is the body of
                    PUT /api/v2/usage/limits/{LimitID}, as docs/usage.md describes it)
  list-usage-limits --operator ID   (every limit with its status in its current period)
  usage-limit-status --operator ID --limit LIMIT_ID
  delete-usage-limit --operator ID --limit LIMIT_ID
  cancel-booking    --operator ID --reference REF --reason TEXT
                    (any booking of any channel; the places go back at once, and the partner
                    who sold it is sent booking.cancelled by the running service within two minutes)
  erase-personal-data --operator ID (--reference REF | --email EMAIL)
                    (erases a booking's customer, answers, contact and notes, or those of
                    every booking of a customer, in every copy; the accounts keep the rest)
  index-personal-data --operator ID
                    (once, for bookings made before erasure and retention existed: indexes
                    them by their customers' emails and for the retention sweep)
  timeslots         --operator ID --activity ACT --date YYYY-MM-DD   (capacity, booked, held, left, who closed them)
  set-capacity      --operator ID --activity ACT --date YYYY-MM-DD --time HH:MM --capacity N
  close-timeslot    --operator ID --activity ACT --date YYYY-MM-DD [--time HH:MM] [--reason TEXT]
  reopen-timeslot   --operator ID --activity ACT --date YYYY-MM-DD [--time HH:MM]   (no --time: every timeslot of the date)
  add-timeslot      --operator ID --activity ACT (--date YYYY-MM-DD --time HH:MM --capacity N | --file timeslots.json)
  cancel-timeslot   --operator ID --activity ACT --date YYYY-MM-DD --time HH:MM --reason TEXT
                    (closes it and cancels its bookings; run it again to finish one that stopped)
  encrypt-webhook-secrets --operator ID
                    (once, after upgrading, for webhook endpoints registered before signing
                    secrets were encrypted: encrypts each one still kept in clear; with --aws
                    give --signing-key ARN, the stack's SigningSecretsKeyArn output)
  emit-event        --operator ID [--event METER] [--endpoint URL]
                    (a sample platform event of every built-in meter, or of one, sent to
                    EventBridge: the local host of npm start unless --endpoint says
                    otherwise, or the account's default bus with --aws)

Without --aws the CLI works on the service of npm start, found by the settings npm start takes:
DynamoDB Local on DYNAMODB_LOCAL_PORT (default ${LOCAL_DYNAMODB_PORT}), or DYNAMODB_ENDPOINT; the table
TABLE_NAME (default ${LOCAL_TABLE_NAME}); the local host on PORT (default ${LOCAL_HTTP_PORT}) and HOST.
With --aws, create-key, set-key-limits and revoke-key also keep the key's API Gateway
API key and usage plan: give --api-id ID (the stack's ApiId output, or API_ID) and
optionally --stage (default ${API_STAGE}).`;

/** A key's webhook endpoint in `list-keys`: its URL and, when attempts to it fail, since when (FAILING: nothing is sent until it is registered again). */
const webhookLine = (webhook: WebhookEndpoint) =>
  `webhook ${webhook.Status} ${webhook.Url}${webhook.FailingSince ? ` receiving nothing since ${webhook.FailingSince}` : ''}`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    aws: { type: 'boolean', default: false },
    table: { type: 'string' },
    id: { type: 'string' },
    name: { type: 'string' },
    'time-zone': { type: 'string' },
    operator: { type: 'string' },
    scopes: { type: 'string' },
    key: { type: 'string' },
    rate: { type: 'string' },
    burst: { type: 'string' },
    'max-held-places-per-timeslot': { type: 'string' },
    'max-held-places': { type: 'string' },
    'api-id': { type: 'string' },
    'signing-key': { type: 'string' },
    stage: { type: 'string' },
    file: { type: 'string' },
    channel: { type: 'string' },
    reference: { type: 'string' },
    email: { type: 'string' },
    activity: { type: 'string' },
    date: { type: 'string' },
    time: { type: 'string' },
    capacity: { type: 'string' },
    reason: { type: 'string' },
    event: { type: 'string' },
    endpoint: { type: 'string' },
    limit: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

class UsageError extends Error {}

function option(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`Missing --${name}`);
  return value;
}

/** Points the domain code at its table: a deployed one with --aws, otherwise the table of `npm start`. */
function configureTarget(): string {
  if (values.aws) {
    const tableName = values.table ?? process.env.TABLE_NAME;
    if (!tableName) throw new UsageError('With --aws, give --table NAME (or set TABLE_NAME)');
    configure({ tableName, signingSecretsKey: values['signing-key'] ?? process.env.SIGNING_SECRETS_KEY_ARN });
    return `table ${tableName} in AWS`;
  }
  const settings = localSettings();
  const { tableName, dynamoEndpoint } = configure({
    tableName: values.table ?? settings.tableName,
    dynamoEndpoint: settings.dynamoDbEndpoint,
    localCredentials: LOCAL_CREDENTIALS,
    // Signing secrets are encrypted by the local host's KMS stand-in.
    localAwsEndpoint: settings.apiUrl,
    signingSecretsKey: LOCAL_SIGNING_KEY_ARN,
  });
  // What it prints as written is on disk when it is printed, as with npm start.
  awaitCommits(attributeClient());
  return `table ${tableName} at ${dynamoEndpoint}`;
}

/** --rate and --burst, or undefined when both are absent. */
function limitsOption(): apiKeys.KeyLimits | undefined {
  if (values.rate === undefined && values.burst === undefined) return undefined;
  return apiKeys.checkKeyLimits({ rateLimit: Number(option('rate')), burstLimit: Number(option('burst')) });
}

/** --max-held-places-per-timeslot and --max-held-places, or undefined when both are absent. */
function holdCapsOption(): HoldCaps | undefined {
  if (values['max-held-places-per-timeslot'] === undefined && values['max-held-places'] === undefined) return undefined;
  return checkHoldCaps({ perTimeslot: Number(option('max-held-places-per-timeslot')), total: Number(option('max-held-places')) });
}

/** The deployed API whose usage plans throttle the keys, in --aws mode only. */
function apiTarget(): ApiTarget | undefined {
  if (!values.aws) return undefined;
  const apiId = values['api-id'] ?? process.env.API_ID;
  if (!apiId) throw new UsageError('With --aws, give --api-id ID (the stack output ApiId), or set API_ID');
  return { client: new APIGatewayClient({}), apiId, stage: values.stage ?? API_STAGE };
}

const describeLimits = ({ rateLimit, burstLimit }: apiKeys.KeyLimits) => `${rateLimit} requests/s, burst ${burstLimit}`;
const describeHoldCaps = ({ perTimeslot, total }: HoldCaps) => `at most ${perTimeslot} places at once on a timeslot and ${total} in all`;

function readJsonFile(file: string): unknown {
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(file, 'utf8');
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  // A price or a capacity is taken as written or not at all, as the API takes numbers.
  checkNumbersAsSent(text);
  return parsed;
}

/** One function per command, each given the table it works on (words for its messages). */
const commands: Record<string, (target: string) => Promise<void>> = {
  'create-operator': async (target) => {
    const operator = await operators.createOperator({ OperatorID: option('id'), Name: option('name'), TimeZone: option('time-zone') });
    console.log(`Created operator ${operator.OperatorID} (${operator.TimeZone}) in ${target}`);
  },
  'create-key': async (_target) => {
    const scopes = apiKeys.parseScopes(option('scopes'));
    const limits = limitsOption() ?? DEFAULT_KEY_LIMITS;
    const caps = holdCapsOption() ?? DEFAULT_HOLD_CAPS;
    const api = apiTarget();
    const { record, secret } = await apiKeys.createApiKey(option('operator'), scopes, values.name ?? 'API key', limits, caps);
    console.log(
      `Created key ${record.KeyID} for ${record.OperatorID} with scopes ${scopes.join(', ')}, limited to ${describeLimits(limits)}, holding ${describeHoldCaps(caps)}.`,
    );
    console.log(`Secret (shown only now; store it safely): ${secret}`);
    if (api) {
      const gatewayKeyId = await createGatewayKey(api, record, limits);
      await apiKeys.setApiGatewayKeyId(record.OperatorID, record.KeyID, gatewayKeyId);
      console.log(`API Gateway key ${gatewayKeyId} is in the usage plan ${usagePlanName(api.apiId, api.stage, limits)}.`);
    }
  },
  'set-key-limits': async (_target) => {
    const [limits, caps] = [limitsOption(), holdCapsOption()];
    if (!limits && !caps) throw new UsageError('Give --rate and --burst, or --max-held-places-per-timeslot and --max-held-places, or both');
    const api = limits && apiTarget();
    if (caps) {
      const record = await apiKeys.setHoldCaps(option('operator'), option('key'), caps);
      console.log(`Key ${record.KeyID} may now hold ${describeHoldCaps(caps)}; the change applies once cached authorizations expire.`);
    }
    if (!limits) return;
    const record = await apiKeys.setApiKeyLimits(option('operator'), option('key'), limits);
    console.log(`Key ${record.KeyID} is now limited to ${describeLimits(limits)}; the change applies once cached authorizations expire.`);
    if (api) {
      if (record.ApiGatewayKeyId) await moveGatewayKey(api, record.ApiGatewayKeyId, limits);
      else await apiKeys.setApiGatewayKeyId(record.OperatorID, record.KeyID, await createGatewayKey(api, record, limits));
      console.log(`Its API Gateway key is in the usage plan ${usagePlanName(api.apiId, api.stage, limits)}.`);
    }
  },
  'list-keys': async (_target) => {
    const keys = await apiKeys.listApiKeys(option('operator'));
    if (!keys.length) console.log('No keys.');
    for (const key of keys) {
      const { rateLimit, burstLimit } = apiKeys.keyLimits(key);
      const { perTimeslot, total } = holdCapsOf(key);
      const holds = `holds ${perTimeslot}/timeslot ${total} in all`;
      const webhook = await webhookOf({ operatorId: key.OperatorID, keyId: key.KeyID });
      console.log(
        `${key.KeyID}  ${key.Status.padEnd(7)}  ${key.Scopes.join(',')}  ${rateLimit}/s burst ${burstLimit}  ${holds}  ${key.CreatedAt}  ${key.Name}${webhook ? `  ${webhookLine(webhook)}` : ''}`,
      );
    }
  },
  'revoke-key': async (_target) => {
    const api = apiTarget();
    const { givenUp } = await revokePartnerKey(option('operator'), option('key'));
    console.log(
      `Revoked ${values.key}; calls with it fail once cached authorizations expire. Its webhook endpoint is removed, ${givenUp} pending delivery(ies) given up.`,
    );
    const { ApiGatewayKeyId } = await apiKeys.getApiKey(option('operator'), option('key'));
    if (api && ApiGatewayKeyId) {
      await deleteGatewayKey(api, ApiGatewayKeyId);
      console.log(`Deleted its API Gateway key ${ApiGatewayKeyId}.`);
    }
  },
  'import-catalog': async (target) => {
    const summary = await importCatalog(option('operator'), readJsonFile(option('file')));
    console.log(`Imported ${counted(summary.products, 'product')} and ${counted(summary.timeslots, 'timeslot')} into ${target}`);
    if (summary.skipped.length) {
      console.log(`Skipped ${summary.skipped.length} scheduled start(s) at a time the clocks skip that day:`);
      for (const start of summary.skipped) console.log(`  ${start.activityId} ${start.date} ${start.time}`);
    }
  },
  'record-booking': async (target) => {
    const input = readJsonFile(option('file'));
    const entries = Array.isArray(input) ? input : [input];
    // One by one, in file order: each takes its places by its own transaction.
    for (const [index, entry] of entries.entries()) {
      try {
        const booking = await recordOperatorBooking(option('operator'), { ...(entry as object), Channel: option('channel') });
        console.log(
          `${booking.BookingReference}  ${booking.Channel}  ${booking.ActivityID} ${booking.Date} ${booking.Time}  x${booking.Participants}`,
        );
      } catch (error) {
        const done = index ? ` (entries before it are recorded)` : '';
        throw new Error(`Entry ${index} of ${values.file}: ${explain(error)}${done}`);
      }
    }
    console.log(`Recorded ${entries.length} booking(s) in ${target}`);
  },
  'cancel-booking': async (target) => {
    const booking = await cancelOperatorBooking(option('operator'), option('reference'), option('reason'));
    const by = booking.CancelledBy === 'operator' ? '' : ` (it was already cancelled by the ${booking.CancelledBy ?? 'partner'})`;
    console.log(
      `${booking.BookingReference}  ${booking.Status}${booking.CancelledAt ? ` at ${booking.CancelledAt}` : ''}${by}  in ${target}`,
    );
  },
  ...personalDataCommands({ option, optional: (name) => values[name], usageError: (message) => new UsageError(message) }),
  ...timeslotCommands({ option, optional: (name) => values[name], readJsonFile }),
  ...usageLimitCommands({ option, readJsonFile }),
  ...webhookCommands({ option }),
  'seed-demo': async (target) => {
    const { newKey, history } = await seedDemo();
    const written = await history;
    const described = written ? `, with a history of ${written.bookings} bookings and ${written.usageEntries} usage entries` : '';
    console.log(`Demo operator ${DEMO_OPERATOR.OperatorID} seeded in ${target}${described}`);
    if (newKey) console.log(`Its first key ${newKey.keyId} (every scope; shown only now): ${newKey.secret}`);
  },
  'rebuild-usage-aggregates': async (target) => {
    await operators.requireOperator(option('operator'));
    const report = await rebuildUsageAggregates(option('operator'));
    console.log(
      `Rebuilt usage aggregates of ${values.operator} in ${target}: ${report.entries} entries read (${report.voided} voided, not counted), ` +
        `${report.aggregates} aggregates written, ${report.removed} stale ones removed, ` +
        `${report.meters} meters registered that were recorded before meters were counted`,
    );
  },
  'void-usage-entry': async (target) => {
    const { entry, voidedNow } = await voidUsageEntry(option('operator'), option('id'), { builtIn: true });
    console.log(
      voidedNow
        ? `Voided usage entry ${entry.ID} of meter ${entry.Meter} (Usage ${entry.Usage}, at ${entry.OccurredAt}) at ${entry.VoidedAt} in ${target}`
        : `Usage entry ${entry.ID} was already voided at ${entry.VoidedAt}; nothing changed in ${target}`,
    );
  },
  'emit-event': async (_target) => {
    const endpoint = values.aws ? undefined : eventBusEndpoint();
    const sent = await emitSampleEvents(option('operator'), { meter: values.event, endpoint });
    for (const event of sent) console.log(`Sent ${event.source} '${event.detailType}' ${event.detail} as event ${event.eventId}`);
    console.log(`(sent to ${endpoint ?? 'the default event bus in AWS'})`);
  },
};

/** Where emit-event sends without --aws: the local host of npm start, unless --endpoint says otherwise. */
const eventBusEndpoint = () => values.endpoint ?? localSettings().apiUrl;

/** Other names users type for a command. */
const ALIASES: Record<string, string> = { 'import-catalogue': 'import-catalog' };

const typed: string | undefined = positionals[0];
const command = typed !== undefined && Object.hasOwn(ALIASES, typed) ? ALIASES[typed] : typed;

async function run(): Promise<void> {
  // Metrics are CloudWatch's (EMF), read from Lambda's logs only: here they would be noise among the command's output.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  if (!command || values.help) {
    console.log(USAGE);
    return;
  }
  const perform = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!perform) throw new UsageError(`Unknown command '${command}'`);
  await perform(configureTarget());
}

/** The service of npm start a command without --aws could not reach, named, with the settings that point at it. */
function unreachable(): string {
  if (command === 'emit-event') {
    const how = values.endpoint ? 'check --endpoint' : 'start it with npm start, or set PORT and HOST as npm start has them';
    return `The local host (npm start's API and event bus) is not reachable at ${eventBusEndpoint()}: ${how}`;
  }
  if (command === 'encrypt-webhook-secrets') {
    const settings = localSettings();
    return `npm start's service is not reachable (DynamoDB Local at ${settings.dynamoDbEndpoint}, its KMS on the local host at ${settings.apiUrl}): start it with npm start, or set DYNAMODB_LOCAL_PORT (or DYNAMODB_ENDPOINT), PORT and HOST as npm start has them`;
  }
  const how = 'start it with npm start, or set DYNAMODB_LOCAL_PORT (or DYNAMODB_ENDPOINT) as npm start has it';
  return `DynamoDB Local is not reachable at ${localSettings().dynamoDbEndpoint}: ${how}`;
}

function explain(error: unknown): string {
  if (error instanceof UsageError) return `${error.message}\n\n${USAGE}`;
  // A catalogue names its entries by their place in the file; a booking file names fields. Every fault found is named.
  if (error instanceof DomainError && error.field) {
    const named = command === 'import-catalog' ? 'Entry' : 'Field';
    return violationsOf(error)
      .map(({ field, message }) => `${named} '${field}' ${message}`)
      .join('\n');
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (!values.aws && (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message))) return unreachable();
  return message;
}

run().catch((error) => {
  console.error(`Error: ${explain(error)}`);
  process.exit(1);
});
