import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Context } from 'aws-lambda';
import { build } from 'esbuild';
import { esbuildOptions } from '../../lib/aws/bundling';
import { entryPath } from '../../shared/api/routes';
import { loadHandler } from '../../functions/load-handler';
import { config } from '../../shared/core/config';
import { putSubscription } from '../../shared/webhooks/repository';

/**
 * A function bundled as `cdk deploy` bundles it (lib/aws/bundling.ts), and
 * its handler invoked in a fresh Node process configured only by its
 * environment, as on Lambda; beside it, the same handler from the sources.
 */

export const execute = promisify(execFile);
/** Where this test file's bundles are written. */
export const outDir = mkdtempSync(path.join(tmpdir(), 'bundles-'));
export interface Invocation {
  name: string;
  event: unknown;
}
export type Outcome = { result: unknown } | { error: string };

/** Runs in the fresh process: loads the bundle, invokes its handler with each event in turn, writes the outcomes. */
const RUNNER = `
const [bundle, eventsFile, outFile] = process.argv.slice(1);
const { readFileSync, writeFileSync } = require('node:fs');
(async () => {
  const { handler } = require(bundle);
  const outcomes = [];
  for (const { name, event } of JSON.parse(readFileSync(eventsFile, 'utf8'))) {
    const context = { awsRequestId: name, functionName: name, getRemainingTimeInMillis: () => 10000 };
    try { outcomes.push({ result: await handler(event, context) }); } catch (error) { outcomes.push({ error: error.message }); }
  }
  writeFileSync(outFile, JSON.stringify(outcomes));
})().catch((error) => { console.error(error); process.exit(1); });`;

export async function bundle(name: string, entry: string): Promise<string> {
  const outfile = path.join(outDir, name, 'index.js');
  await build({ entryPoints: [entryPath(entry)], outfile, ...esbuildOptions(), logLevel: 'error' });
  return outfile;
}

/**
 * The environment that points a function at the local host's KMS, once a
 * local host runs: the key a function that issues or sends webhooks is
 * told, and KMS's endpoint as the SDK reads it from the environment.
 */
function kmsEnvironment(): Record<string, string> {
  const { localAwsEndpoint, signingSecretsKey } = config();
  return localAwsEndpoint && signingSecretsKey
    ? { AWS_ENDPOINT_URL_KMS: localAwsEndpoint, SIGNING_SECRETS_KEY_ARN: signingSecretsKey }
    : {};
}

/** What the bundle answers and logs, from a process that has only a function's environment (and the local addresses of DynamoDB and KMS). */
export async function runBundle(file: string, invocations: Invocation[], environment: Record<string, string> = {}) {
  const eventsFile = `${file}.events.json`;
  const outFile = `${file}.outcomes.json`;
  writeFileSync(eventsFile, JSON.stringify(invocations));
  const { stdout, stderr } = await execute(process.execPath, ['-e', RUNNER, file, eventsFile, outFile], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'ERROR',
      ...Object.fromEntries(
        ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'].map((name) => [
          name,
          process.env[name] ?? '',
        ]),
      ),
      ...kmsEnvironment(),
      ...environment,
    },
  });
  // Powertools writes ERROR lines to stderr, the others to stdout.
  const lines = `${stdout}\n${stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
  return { outcomes: JSON.parse(readFileSync(outFile, 'utf8')) as Outcome[], lines };
}

export const invokeBundle = async (file: string, invocations: Invocation[]): Promise<Outcome[]> =>
  (await runBundle(file, invocations)).outcomes;

/** What the TypeScript sources answer, in this process. */
export async function invokeSources(entry: string, invocations: Invocation[]): Promise<Outcome[]> {
  const handler = loadHandler<(event: unknown, context: Context) => Promise<unknown>>(entry);
  const outcomes: Outcome[] = [];
  for (const { name, event } of invocations) {
    try {
      outcomes.push({
        result: JSON.parse(
          JSON.stringify(
            (await handler(event, { awsRequestId: name, getRemainingTimeInMillis: () => 10_000 } as unknown as Context)) ?? null,
          ),
        ),
      });
    } catch (error) {
      outcomes.push({ error: (error as Error).message });
    }
  }
  return outcomes;
}

/** A booking request of the test catalogue's walk on `date` at 09:00, as the bundle tests make them. */
export const bundledBooking = (date: string, participants: number) => ({
  ActivityID: 's_walk1',
  Date: date,
  Time: '09:00',
  Participants: participants,
  Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' },
});

export const SUBSCRIPTION_ID = '7a1b2c3d-0000-4000-8000-0000000000bb';

/** One OCTo subscription of the same ID under each key (each side's, and one that only lists), so that each side changes and deletes its own. */
export async function seedSubscriptions(operatorId: string, keyIds: string[]): Promise<void> {
  const at = '2026-06-01T08:00:00.000Z';
  for (const keyId of keyIds) {
    await putSubscription(
      {
        SubscriptionID: SUBSCRIPTION_ID,
        OperatorID: operatorId,
        KeyID: keyId,
        Url: 'https://reseller.example.com/octo/notifications',
        NotificationTypes: ['AVAILABILITY_UPDATE'],
        Headers: { 'Api-Key': 'receiver-secret' },
        CreatedAt: at,
        UpdatedAt: at,
      },
      false,
    );
  }
}
