import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { SCOPES, type Scope } from '../../shared/accounts/scopes';
import { importCatalog, type CatalogFile } from '../../shared/catalog/import-catalog';
import { createOperator } from '../../shared/accounts/operators';
import { startLocalHost, type LocalHost, type LocalHostOptions } from '../../lib/local/host';
import { ensureTable } from '../../lib/local/table';
import { config, configure, type Config } from '../../shared/core/config';
import { attributeClient } from '../../shared/db/client';

/** A fresh operator ID, so that every test file (and test) has a tenant of its own in the shared table. */
export const uniqueOperatorId = (stem = 'op') => `${stem}-${randomBytes(5).toString('hex')}`;

export interface TestOperator {
  operatorId: string;
  /** A key with every scope. */
  key: string;
  keyWith(scopes: Scope[]): Promise<string>;
}

export async function createTestOperator(catalog?: CatalogFile, options: { timeZone?: string; stem?: string } = {}): Promise<TestOperator> {
  const operatorId = uniqueOperatorId(options.stem);
  await createOperator({ OperatorID: operatorId, Name: `Test ${operatorId}`, TimeZone: options.timeZone ?? 'Europe/Lisbon' });
  if (catalog) await importCatalog(operatorId, catalog);
  // At the highest limits, so that only the rate-limit tests (which make keys of their own) meet a 429.
  const keyWith = async (scopes: Scope[]) => (await createApiKey(operatorId, scopes, 'test', MAX_KEY_LIMITS)).secret;
  return { operatorId, key: await keyWith(Object.keys(SCOPES) as Scope[]), keyWith };
}

/** An HTTP client for the local host that returns status, headers and parsed JSON. */
export function httpClient(host: LocalHost) {
  return async function request(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${host.url}${path}`, { method, headers, body });
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

/** Starts the local host on a free port; tests that move time pass a clock. */
/**
 * The test file's own table (made if missing), with `settings` beside: what
 * the file writes, and reads back on the table's stream, is its own.
 */
export async function useOwnTable(settings: Partial<Config> & Pick<Config, 'tableName'>): Promise<void> {
  configure({ ...config(), ...settings });
  await ensureTable(attributeClient(), config().tableName);
}

export const startTestHost = (options: LocalHostOptions = {}) => startLocalHost(options);

/** A port nothing listens on at the moment (the system's choice of a free one). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
