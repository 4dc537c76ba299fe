// Long because one browser session walks every screen of the dashboard; starting Chromium per file would cost more than it saves.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../dashboard/site';
import type { LocalHost } from '../../lib/local/host';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { recordUsage } from '../../shared/usage/record-usage';
import { addDays } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';

/**
 * The operator dashboard in headless Chromium against the local host, with
 * bookings of every channel and usage on several meters and days.
 */

const ARTIFACTS = path.resolve(__dirname, '../../test-results/dashboard');
const TIME_ZONE = 'UTC';

/** Usage on fixed days, some with dimensions, so the chart, the totals, the groups and the CSV have known values. */
const USAGE: [meter: string, day: string, usage: number, dimensions?: Record<string, string>][] = [
  ['api-calls', '2026-03-02', 40, { Region: 'eu-west' }],
  ['api-calls', '2026-03-03', 25, { Region: 'us-east', Plan: 'pro' }],
  ['api-calls', '2026-03-05', 30],
  ['storage-gb', '2026-03-03', 12.5, { Region: 'eu-west' }],
  ['storage-gb', '2026-03-04', 20.25, { Region: 'eu-west', Plan: 'free' }],
];
const ORDERS = { day: '2026-03-04', count: 5 };

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
let context: BrowserContext;
let page: Page;
let userDataDir: string;
const requestedUrls: string[] = [];
const consoleLines: string[] = [];
let otaReference: string;
let cancelledReference: string;
let posReference: string;

const customer = { FirstName: 'Inês', LastName: 'Costa', Email: 'ines@example.com' };
const bookingBody = (time: string, extra: Record<string, unknown> = {}) => ({
  ActivityID: 's_walk1',
  Date: tomorrow(TIME_ZONE),
  Time: time,
  Participants: 2,
  Customer: customer,
  ...extra,
});

beforeAll(async () => {
  // `npm test` builds first; a run of this file alone builds here when the build is missing or stale.
  ensureDashboardBuilt();
  operator = await createTestOperator(testCatalog({ start: tomorrow(TIME_ZONE), days: 2, capacity: 40 }), {
    timeZone: TIME_ZONE,
    stem: 'dash',
  });
  host = await startTestHost();
  request = httpClient(host);

  // Point of sale and online sales recorded by the operator: enough for two pages of ten.
  for (let i = 0; i < 10; i += 1) {
    const made = await recordOperatorBooking(operator.operatorId, {
      ...bookingBody(i % 2 ? '09:00' : '14:00', { Participants: 1 }),
      Channel: i % 3 ? 'pos' : 'online',
      PaymentReference: `till-${i}`,
    });
    if (i === 1) posReference = made.BookingReference;
  }
  // Two partner bookings through the API, one of them cancelled.
  const cancelled = await request('POST', '/api/v2/ota/marketplace/booking', {
    key: operator.key,
    body: bookingBody('09:00', { PaymentReference: 'ota-pay-2' }),
  });
  cancelledReference = cancelled.json.data.BookingReference;
  expect((await request('POST', `/api/v2/ota/marketplace/booking/${cancelledReference}/cancel`, { key: operator.key })).status).toBe(200);
  const ota = await request('POST', '/api/v2/ota/marketplace/booking', {
    key: operator.key,
    body: bookingBody('14:00', { PaymentReference: 'ota-pay-1' }),
  });
  expect(ota.status).toBe(201);
  otaReference = ota.json.data.BookingReference;

  for (const [meter, day, usage, dimensions] of USAGE) {
    await recordUsage(operator.operatorId, {
      Meter: meter,
      Usage: usage,
      OccurredAt: Date.parse(`${day}T10:00:00Z`) / 1000,
      Dimensions: dimensions,
    });
  }
  for (let i = 0; i < ORDERS.count; i += 1) {
    await recordUsage(
      operator.operatorId,
      { Meter: 'order-completed', Usage: 1, OccurredAt: Date.parse(`${ORDERS.day}T12:00:00Z`) / 1000 + i },
      { builtIn: true },
    );
  }

  await mkdir(ARTIFACTS, { recursive: true });
  userDataDir = await mkdtemp(path.join(os.tmpdir(), 'dashboard-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 860 },
    deviceScaleFactor: 1,
    timezoneId: TIME_ZONE,
    locale: 'en-GB',
    acceptDownloads: true,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (sent) => requestedUrls.push(sent.url()));
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await host?.close();
});

const open = () => page.goto(`${host.url}/dashboard/`);
const screenshot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
const text = (selector: string) => page.locator(selector).innerText();
const rows = () => page.locator('#bookings-table tbody tr');
const channels = () => rows().evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { channel: string } }).dataset.channel));

async function signIn(key: string): Promise<void> {
  await open();
  await page.locator('#api-key').focus();
  await page.keyboard.type(key);
  // The Sign in button is the next stop after the key, and Enter in the field submits too.
  await page.keyboard.press('Tab');
  expect(await page.evaluate('document.activeElement.textContent')).toBe('Sign in');
  await page.keyboard.press('Enter');
}

async function setDate(selector: string, value: string): Promise<void> {
  await page.locator(selector).fill(value);
}

/** Every form control on the page has a label element or an accessible name. */
async function unlabelledControls(): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('input, select, textarea')]
    .filter((control) => !(control.labels && control.labels.length) && !control.getAttribute('aria-label'))
    .map((control) => control.id || control.outerHTML)`);
}

/** Pixels of each colour in the chart's plot (above the legend and axis labels), from the canvas itself. */
async function plotPixelsByColour(colours: string[]): Promise<number[]> {
  return page.evaluate(`(() => {
    const canvas = document.getElementById('usage-chart');
    const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const wanted = ${JSON.stringify(colours)}.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
    const counts = wanted.map(() => 0);
    for (let y = 0; y < Math.floor(height * 0.7); y += 1)
      for (let x = 0; x < width; x += 1) {
        const p = (y * width + x) * 4;
        wanted.forEach(([r, g, b], i) => { if (data[p] === r && data[p + 1] === g && data[p + 2] === b && data[p + 3] === 255) counts[i] += 1; });
      }
    return counts;
  })()`);
}

describe('operator dashboard', () => {
  it('is served by the local host at /dashboard with a strict content security policy', async () => {
    const bare = await fetch(`${host.url}/dashboard`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/dashboard/');
    const index = await fetch(`${host.url}/dashboard/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await index.text()).toContain('Operator dashboard');
    const traversal = await fetch(`${host.url}/dashboard/..%2Fsite.ts`);
    expect(traversal.status).toBe(404);
    expect(traversal.headers.get('content-type')).toBe('application/problem+json');
  });

  it('signs in with the keyboard and shows OTA and point-of-sale bookings side by side, filtered and paged', async () => {
    await signIn(operator.key);
    expect(await page.evaluate('document.activeElement.id')).toBe('tab-bookings');
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await unlabelledControls()).toEqual([]);

    // The default range (the last seven days) holds today's bookings; the default page is 25 rows.
    expect(await rows().count()).toBe(12);
    const all = await channels();
    expect(all.slice(0, 2)).toEqual(['ota', 'ota']);
    expect(new Set(all)).toEqual(new Set(['ota', 'online', 'pos']));
    const ota = page.locator(`#bookings-table tr[data-reference="${otaReference}"]`);
    expect(await ota.innerText()).toMatch(/OTA partner\s+Partner key_\w+\s+Payment ota-pay-1[\s\S]*Confirmed/);
    const cancelled = page.locator(`#bookings-table tr[data-reference="${cancelledReference}"]`);
    expect(await cancelled.innerText()).toMatch(/Payment ota-pay-2[\s\S]*Cancelled\s+\d/);
    const pos = page.locator(`#bookings-table tr[data-reference="${posReference}"]`);
    expect(await pos.innerText()).toMatch(
      /Point of sale\s+Payment till-1[\s\S]*Harbour Walking Tour[\s\S]*€20\.00[\s\S]*Inês Costa[\s\S]*Confirmed/,
    );
    await screenshot('bookings');

    // Filter by channel with the keyboard: the select changes and the list reloads at once.
    await page.locator('#bookings-channel').focus();
    await page.locator('#bookings-channel').selectOption('pos');
    // Choosing a channel starts the reload at once (the status turns to loading), so "done" is the filtered list.
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await channels()).toEqual(Array(6).fill('pos'));

    // Ten rows a page: the next page holds the rest, and Previous goes back.
    await page.locator('#bookings-channel').selectOption('');
    await page.locator('#bookings-limit').selectOption('10');
    await page.locator('#bookings-to').focus();
    await page.keyboard.press('Enter');
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await rows().count()).toBe(10);
    const firstPage = await rows().evaluateAll((trs) =>
      trs.map((tr) => (tr as unknown as { dataset: { reference: string } }).dataset.reference),
    );
    await page.locator('#bookings-next').focus();
    await page.keyboard.press('Enter');
    await page.locator('#bookings-page', { hasText: 'Page 2' }).waitFor();
    const secondPage = await rows().evaluateAll((trs) =>
      trs.map((tr) => (tr as unknown as { dataset: { reference: string } }).dataset.reference),
    );
    expect(secondPage).toHaveLength(2);
    expect(new Set([...firstPage, ...secondPage]).size).toBe(12);
    expect(await page.locator('#bookings-next').isDisabled()).toBe(true);
    await page.locator('#bookings-previous').click();
    await page.locator('#bookings-page', { hasText: 'Page 1' }).waitFor();
    expect(await page.locator('#bookings-previous').isDisabled()).toBe(true);

    // A range without bookings says so.
    await setDate('#bookings-from', '2020-01-01');
    await setDate('#bookings-to', '2020-01-31');
    await page.locator('#bookings-form button[type="submit"]').click();
    await page.locator('#bookings-status[data-state="empty"]').waitFor();
    expect(await text('#bookings-status')).toBe('No bookings were made in this range.');
    expect(await page.locator('#bookings-table').isHidden()).toBe(true);
  });

  it('draws daily usage per meter, lists the totals and downloads the summary as CSV', async () => {
    // Arrow keys move between tabs (the WAI-ARIA tabs pattern), Tab moves into the panel.
    await page.locator('#tab-bookings').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#tab-manifest').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#tab-usage').getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('#panel-usage').isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('usage-from');
    await page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();

    await setDate('#usage-from', '2026-03-01');
    await setDate('#usage-to', '2026-03-07');
    await page.locator('#usage-to').focus();
    await page.keyboard.press('Enter');
    await page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');

    const totals = await page.locator('#usage-table tbody tr').allInnerTexts();
    expect(totals.map((row) => row.split('\t').map((part) => part.trim()))).toEqual([
      ['api-calls', '95', '3'],
      ['storage-gb', '32.75', '2'],
      ['order-completed', '5', '5'],
    ]);
    expect(await text('#usage-total')).toBe('132.75');
    expect(await text('#usage-events')).toBe('10');

    // The chart is drawn: each meter's colour fills bars in the plot area.
    const colours = await page
      .locator('#usage-table tbody .swatch')
      .evaluateAll((swatches) =>
        swatches.map((swatch) => (swatch as unknown as { style: { backgroundColor: string } }).style.backgroundColor),
      );
    const hex = colours.map((rgb) => `#${(rgb.match(/\d+/g) ?? []).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`);
    expect(hex).toHaveLength(3);
    const pixels = await plotPixelsByColour(hex);
    for (const count of pixels) expect(count).toBeGreaterThan(200);
    expect(await unlabelledControls()).toEqual([]);
    // Without a focus ring in the picture (docs/dashboard.png is this screenshot).
    await page.evaluate('document.activeElement.blur()');
    await screenshot('usage');

    await page.locator('#usage-csv').focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('usage-2026-03-01-to-2026-03-07.csv');
    const csv = (await readFile((await download.path()) as string, 'utf8')).trimEnd().split('\r\n');
    const days = Array.from({ length: 7 }, (_, i) => addDays('2026-03-01', i));
    const expected = (meter: string, values: Record<string, [number, number]>) =>
      days.map((day) => [meter, day, ...(values[day] ?? [0, 0])].join(','));
    expect(csv).toEqual([
      'Meter,Date,Usage,Events',
      ...expected('api-calls', { '2026-03-02': [40, 1], '2026-03-03': [25, 1], '2026-03-05': [30, 1] }),
      ...expected('storage-gb', { '2026-03-03': [12.5, 1], '2026-03-04': [20.25, 1] }),
      ...expected('order-completed', { [ORDERS.day]: [ORDERS.count, ORDERS.count] }),
    ]);

    // A range without usage says so and offers no download.
    await setDate('#usage-from', '2025-01-01');
    await setDate('#usage-to', '2025-01-07');
    await page.locator('#usage-form button[type="submit"]').click();
    await page.locator('#usage-status[data-state="empty"]').waitFor();
    expect(await text('#usage-status')).toBe('No usage was recorded in this range.');
    expect(await page.locator('#usage-csv').isDisabled()).toBe(true);
    expect(await page.locator('#usage-figure').isHidden()).toBe(true);
  });

  it('shows a year per month, the view an operator bills from', async () => {
    await setDate('#usage-from', '2025-04-01');
    await setDate('#usage-to', '2026-03-31');
    await page.locator('#usage-granularity').selectOption('month');
    await page.locator('#usage-form button[type="submit"]').click();
    await page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('3 meters, 10 entries from 2025-04-01 to 2026-03-31 (UTC).');
    expect(await text('#usage-caption')).toBe('Monthly usage per meter; the totals are in the table below.');
    expect(await text('#usage-total')).toBe('132.75');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#usage-csv').click()]);
    const csv = (await readFile((await download.path()) as string, 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('Meter,Month,Usage,Events');
    // One row per meter and month of the twelve; all the usage in March 2026.
    expect(csv).toHaveLength(1 + 3 * 12);
    expect(csv.filter((row) => !row.endsWith(',0,0'))).toEqual([
      'Meter,Month,Usage,Events',
      'api-calls,2026-03,95,3',
      'storage-gb,2026-03,32.75,2',
      'order-completed,2026-03,5,5',
    ]);

    // The preset asks for the twelve calendar months up to today.
    await page.locator('#usage-granularity').selectOption('day');
    await page.locator('#usage-year').click();
    await page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    const today = new Date();
    expect(await page.locator('#usage-from').inputValue()).toBe(
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1)).toISOString().slice(0, 10),
    );
    expect(await page.locator('#usage-granularity').inputValue()).toBe('month');
    expect(await page.locator('#usage-status').getAttribute('data-state')).not.toBe('error');
  });

  it('groups usage by the dimensions typed in, in the table, the chart and the CSV', async () => {
    await setDate('#usage-from', '2026-03-01');
    await setDate('#usage-to', '2026-03-07');
    await page.locator('#usage-granularity').selectOption('day');
    await page.locator('#usage-group-by').fill('Region');
    await page.locator('#usage-form button[type="submit"]').click();
    await page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('5 groups by Region of 3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');
    expect(await text('#usage-caption')).toBe('Daily usage per meter and Region; the totals are in the table below.');
    expect((await page.locator('#usage-table thead th').allInnerTexts()).map((heading) => heading.trim())).toEqual([
      'Meter',
      'Region',
      'Total usage',
      'Entries',
    ]);
    const groups = await page.locator('#usage-table tbody tr').allInnerTexts();
    expect(groups.map((row) => row.split('\t').map((part) => part.trim()))).toEqual([
      ['api-calls', 'eu-west', '40', '1'],
      ['storage-gb', 'eu-west', '32.75', '2'],
      ['api-calls', '(none)', '30', '1'],
      ['api-calls', 'us-east', '25', '1'],
      ['order-completed', '(none)', '5', '5'],
    ]);
    expect(await text('#usage-total')).toBe('132.75');
    expect(await page.locator('#usage-total-label').getAttribute('colspan')).toBe('2');
    // One series per group, each drawn in its colour.
    const colours = await page
      .locator('#usage-table tbody .swatch')
      .evaluateAll((swatches) =>
        swatches.map((swatch) => (swatch as unknown as { style: { backgroundColor: string } }).style.backgroundColor),
      );
    const hex = colours.map((rgb) => `#${(rgb.match(/\d+/g) ?? []).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`);
    expect(new Set(hex).size).toBe(5);
    for (const count of await plotPixelsByColour(hex)) expect(count).toBeGreaterThan(100);
    expect(await unlabelledControls()).toEqual([]);
    await page.evaluate('document.activeElement.blur()');
    await screenshot('usage-grouped');

    // Two keys: the CSV has a column for each, empty where an entry lacks the key.
    await page.locator('#usage-group-by').fill('Region, Plan');
    await page.locator('#usage-form button[type="submit"]').click();
    await page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('6 groups by Region, Plan of 3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#usage-csv').click()]);
    const csv = (await readFile((await download.path()) as string, 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('Meter,Region,Plan,Date,Usage,Events');
    expect(csv).toHaveLength(1 + 6 * 7);
    expect(csv.filter((row) => !row.endsWith(',0,0'))).toEqual([
      'Meter,Region,Plan,Date,Usage,Events',
      'api-calls,eu-west,,2026-03-02,40,1',
      'api-calls,,,2026-03-05,30,1',
      'api-calls,us-east,pro,2026-03-03,25,1',
      'storage-gb,eu-west,free,2026-03-04,20.25,1',
      'storage-gb,eu-west,,2026-03-03,12.5,1',
      'order-completed,,,2026-03-04,5,5',
    ]);

    // A key that is not one is refused in the form, before any request.
    await page.locator('#usage-group-by').fill('Re-gion');
    await page.locator('#usage-form button[type="submit"]').click();
    expect(
      await page.locator('#usage-group-by').evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    ).toBe(false);
    expect(await text('#usage-status')).toMatch(/^6 groups/);
    await page.locator('#usage-group-by').fill('');
    await page.locator('#usage-form button[type="submit"]').click();
    await page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');
    expect(await page.locator('#usage-table thead th').count()).toBe(3);
  });

  it('shows a printable manifest of a day by timeslot, holds with their expiry, and cancels with a reason for a key with bookings:write', async () => {
    const held = await request('POST', '/api/v2/ota/marketplace/booking', {
      key: operator.key,
      body: bookingBody('14:00', {
        Customer: { FirstName: 'Zé', LastName: 'Almeida', Email: 'ze@example.com' },
        Hold: { ExpiresInMinutes: 30 },
      }),
    });
    expect(held.status).toBe(201);
    await page.locator('#tab-manifest').click();
    await setDate('#manifest-date', tomorrow(TIME_ZONE));
    await page.locator('#manifest-form button[type="submit"]').click();
    await page.locator('#manifest-status[data-state="done"]').waitFor();
    const headings = await page.locator('.manifest-slot h3').allInnerTexts();
    expect(headings.map((heading) => heading.split('\n')[0])).toEqual(['09:00 · Harbour Walking Tour', '14:00 · Harbour Walking Tour']);
    expect(headings[1]).toMatch(/participants, 2 of them on hold/);
    const holdRow = page.locator(`.manifest-slot tr[data-reference="${held.json.data.BookingReference}"]`);
    expect(await holdRow.innerText()).toMatch(/Almeida[\s\S]*On hold\s+until/);
    expect(await page.locator('#manifest-print').isEnabled()).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#manifest-form').isHidden()).toBe(true);
    expect(await page.locator('.tabs').isHidden()).toBe(true);
    await screenshot('manifest-print');
    await page.emulateMedia({ media: 'screen' });

    // The key has bookings:write: the Cancel button asks for the reason and cancels.
    page.once('dialog', (dialog) => void dialog.accept('Guide ill'));
    await holdRow.locator('button.cancel-booking').click();
    await page.locator(`.manifest-slot tr[data-reference="${held.json.data.BookingReference}"]`).waitFor({ state: 'detached' });
    const cancelled = await request('GET', `/api/v2/ota/marketplace/booking/${held.json.data.BookingReference}`, { key: operator.key });
    expect(cancelled.json.data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'operator', CancellationReason: 'Guide ill' });
    await page.locator('#tab-bookings').click();
  });

  it('offers no Cancel button to a key without bookings:write', async () => {
    await page.locator('#sign-out').click();
    await signIn(await operator.keyWith(['bookings:read', 'usage:read']));
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await rows().count()).toBeGreaterThan(0);
    expect(await page.locator('#bookings-table button.cancel-booking').count()).toBe(0);
    await page.locator('#sign-out').click();
    await signIn(operator.key);
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await page.locator('#bookings-table button.cancel-booking').count()).toBeGreaterThan(0);
  });

  it("shows an OCTo reseller's booking as its key's, with the reseller's reference", async () => {
    const reserved = await request('POST', '/octo/bookings', {
      key: operator.key,
      body: {
        productId: 's_walk1',
        optionId: 'DEFAULT',
        availabilityId: `${tomorrow(TIME_ZONE)}T09:00:00+00:00`,
        unitItems: [{ unitId: 'adult' }],
      },
    });
    expect(reserved.status).toBe(200);
    const confirmed = await request('POST', `/octo/bookings/${reserved.json.uuid}/confirm`, {
      key: operator.key,
      body: { resellerReference: 'RES-E2E', contact: { firstName: 'Rui', lastName: 'Costa', emailAddress: 'rui@example.com' } },
    });
    expect(confirmed.status).toBe(200);
    await page.locator('#sign-out').click();
    await signIn(operator.key);
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    const row = page.locator(`#bookings-table tr[data-reference="${reserved.json.id}"]`);
    expect(await row.innerText()).toMatch(/OTA partner\s+Partner key_\w+\s+Reseller RES-E2E[\s\S]*Rui Costa[\s\S]*Confirmed/);
  });

  it('says when a key lacks a scope (403) and when it is refused (401)', async () => {
    await page.locator('#sign-out').click();
    await page.locator('#sign-in-screen').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);

    const usageOnly = await operator.keyWith(['usage:read']);
    await signIn(usageOnly);
    await page.locator('#bookings-status[data-state="error"]').waitFor();
    expect(await text('#bookings-status')).toBe('This API key lacks the bookings:read scope (403). Ask for a key that has it.');
    await page.locator('#tab-usage').click();
    await page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    expect(await page.locator('#usage-status').getAttribute('data-state')).not.toBe('error');
    await page.locator('#tab-bookings').click();
    await screenshot('forbidden');
    await page.locator('#sign-out').click();

    await signIn('ak_thisKeyDoesNotExist0000000000000000000000000');
    await page.locator('#sign-in-message:not([hidden])').waitFor();
    expect(await text('#sign-in-message')).toBe(
      'The API key was refused (401): it is invalid, expired or revoked. Sign in with a current key.',
    );
    expect(await page.locator('#dashboard-screen').isHidden()).toBe(true);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(await unlabelledControls()).toEqual([]);
    await screenshot('sign-in');
  });

  it("names the operator signed in as, and reads usage in the operator's own time zone until told another", async () => {
    const lisbon = await createTestOperator(undefined, { timeZone: 'Europe/Lisbon', stem: 'dash-lisbon' });
    await signIn(lisbon.key);
    await page.locator('#signed-in-as:not([hidden])').waitFor();
    expect(await text('#signed-in-as')).toBe(`Test ${lisbon.operatorId} · Europe/Lisbon`);
    await page.locator('#tab-usage').click();
    await page.locator('#usage-status[data-state="empty"]').waitFor();
    expect(await page.locator('#usage-tz').inputValue()).toBe('Europe/Lisbon');
    expect(await text('#usage-status')).toBe('No usage was recorded in this range.');
    // Another zone, chosen by the operator, stays until sign-out.
    await page.locator('#usage-tz').fill('Asia/Tokyo');
    await page.locator('#usage-tz').dispatchEvent('change');
    await page.locator('#tab-bookings').click();
    await page.locator('#tab-usage').click();
    expect(await page.locator('#usage-tz').inputValue()).toBe('Asia/Tokyo');
    await page.locator('#sign-out').click();
    await signIn(operator.key);
    await page.locator('#tab-usage').click();
    await page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    expect(await page.locator('#usage-tz').inputValue()).toBe('UTC');
    await page.locator('#sign-out').click();
  });

  it('keeps the key out of URLs, logs and persistent storage', async () => {
    await signIn(operator.key);
    await page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await page.evaluate('sessionStorage.getItem("ota-dashboard.api-key")')).toBe(operator.key);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(requestedUrls.length).toBeGreaterThan(10);
    expect(requestedUrls.filter((url) => url.includes('ak_'))).toEqual([]);
    expect(consoleLines.filter((line) => line.includes('ak_'))).toEqual([]);
    expect(consoleLines.filter((line) => line.startsWith('pageerror'))).toEqual([]);
    expect(page.url()).toBe(`${host.url}/dashboard/`);
  });
});
