import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { manualClock } from '../../shared/core/clock';
import { documentClient, tableName } from '../../shared/db/client';
import { tableDesign } from '../../shared/db/table-design';
import { testCatalog, tomorrow } from './catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from './fixtures';
import { octoCatalog, octoClient, type OctoClient } from './octo';

export const ERASURE = '/api/v2/bookings/erasure';
export const BOOKING = '/api/v2/ota/marketplace/booking';

/** Both tests' catalogues in one: the walk with waiver questions (marketplace), the boat trip with units (OCTo). */
export function erasureCatalog(start: string): CatalogFile {
  const [walk] = testCatalog({ start, days: 10, capacity: 30 }).Products;
  const octo = octoCatalog({ start, days: 10, capacity: 30 }).Products.filter((product) => product.ActivityID !== walk.ActivityID);
  return { Products: [walk, ...octo] };
}

/** A customer of the test's own, so that nothing else in the table carries its name, email or phone. */
export function uniqueCustomer() {
  const tag = randomUUID().slice(0, 8);
  return {
    FirstName: `Ana${tag}`,
    LastName: `Silva${tag}`,
    Email: `ana.${tag}@example.com`,
    Phone: `+3519${tag.replace(/\D/g, '').padEnd(8, '7').slice(0, 8)}`,
  };
}

/** Every item of the table and of each of its indexes whose text contains any of `needles` (a test table of its own only). */
export async function itemsMentioning(needles: string[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (const index of [undefined, ...tableDesign.globalSecondaryIndexes.map((gsi) => gsi.indexName)]) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(new ScanCommand({ TableName: tableName(), IndexName: index, ExclusiveStartKey: startKey }));
      for (const item of page.Items ?? []) {
        const text = JSON.stringify(item).toLowerCase();
        if (needles.some((needle) => text.includes(needle.toLowerCase()))) found.push({ index: index ?? 'table', ...item });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return found;
}

/**
 * The world of an erasure test file: a table of its own (the retention sweep
 * reads every operator's due bookings, and the scans above read it whole), a
 * clock the tests move, webhooks to loopback receivers allowed (deliveries
 * are written, and stay pending: nobody reads the stream), two operators and
 * the local host.
 */
export function erasureWorld(table: string) {
  const world = {} as { host: LocalHost; request: HttpClient; operator: TestOperator; other: TestOperator; octo: OctoClient };
  const start = tomorrow();
  const clock = manualClock(new Date());

  beforeAll(async () => {
    await useOwnTable({ tableName: table, clock, webhookTargets: 'loopback-http' });
    world.operator = await createTestOperator(erasureCatalog(start));
    world.other = await createTestOperator(erasureCatalog(start));
    world.host = await startTestHost();
    world.request = httpClient(world.host);
    world.octo = octoClient(world.request, world.operator.key);
    // The partner listens, so its bookings' events are written as deliveries.
    const registered = await world.request('PUT', '/api/v2/ota/webhook', {
      key: world.operator.key,
      body: { Url: 'http://127.0.0.1:9/hooks' },
    });
    expect(registered.status).toBe(200);
  });

  afterAll(() => world.host.close());

  return { world, start, day: (offset: number) => addDays(start, offset), clock };
}
