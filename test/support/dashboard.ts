import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../dashboard/site';
import type { LocalHost } from '../../lib/local/host';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { recordUsage } from '../../shared/usage/record-usage';
import { testCatalog, tomorrow } from './catalog';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from './fixtures';

/**
 * The world of a dashboard test file: an operator with bookings of every
 * channel and usage on several meters and days, the local host, and one
 * headless Chromium session on the dashboard, with the helpers that drive it.
 */

const ARTIFACTS = path.resolve(__dirname, '../../test-results/dashboard');
export const TIME_ZONE = 'UTC';

/** Usage on fixed days, some with dimensions, so the chart, the totals, the groups and the CSV have known values. */
export const USAGE: [meter: string, day: string, usage: number, dimensions?: Record<string, string>][] = [
  ['api-calls', '2026-03-02', 40, { Region: 'eu-west' }],
  ['api-calls', '2026-03-03', 25, { Region: 'us-east', Plan: 'pro' }],
  ['api-calls', '2026-03-05', 30],
  ['storage-gb', '2026-03-03', 12.5, { Region: 'eu-west' }],
  ['storage-gb', '2026-03-04', 20.25, { Region: 'eu-west', Plan: 'free' }],
];
export const ORDERS = { day: '2026-03-04', count: 5 };

export const customer = { FirstName: 'Inês', LastName: 'Costa', Email: 'ines@example.com' };
export const bookingBody = (time: string, extra: Record<string, unknown> = {}) => ({
  ActivityID: 's_walk1',
  Date: tomorrow(TIME_ZONE),
  Time: time,
  Participants: 2,
  Customer: customer,
  ...extra,
});

export interface DashboardWorld {
  host: LocalHost;
  request: HttpClient;
  operator: TestOperator;
  context: BrowserContext;
  page: Page;
  /** Every URL the page requested, and every line it wrote to its console. */
  requestedUrls: string[];
  consoleLines: string[];
  otaReference: string;
  cancelledReference: string;
  posReference: string;
}

export function dashboardWorld() {
  const world = { requestedUrls: [], consoleLines: [] } as unknown as DashboardWorld;
  let userDataDir: string;

  beforeAll(async () => {
    // `npm test` builds first; a run of this file alone builds here when the build is missing or stale.
    ensureDashboardBuilt();
    world.operator = await createTestOperator(testCatalog({ start: tomorrow(TIME_ZONE), days: 2, capacity: 40 }), {
      timeZone: TIME_ZONE,
      stem: 'dash',
    });
    world.host = await startTestHost();
    world.request = httpClient(world.host);

    // Point of sale and online sales recorded by the operator: enough for two pages of ten.
    for (let i = 0; i < 10; i += 1) {
      const made = await recordOperatorBooking(world.operator.operatorId, {
        ...bookingBody(i % 2 ? '09:00' : '14:00', { Participants: 1 }),
        Channel: i % 3 ? 'pos' : 'online',
        PaymentReference: `till-${i}`,
      });
      if (i === 1) world.posReference = made.BookingReference;
    }
    // Two partner bookings through the API, one of them cancelled.
    const cancelled = await world.request('POST', '/api/v2/ota/marketplace/booking', {
      key: world.operator.key,
      body: bookingBody('09:00', { PaymentReference: 'ota-pay-2' }),
    });
    world.cancelledReference = cancelled.json.data.BookingReference;
    expect(
      (await world.request('POST', `/api/v2/ota/marketplace/booking/${world.cancelledReference}/cancel`, { key: world.operator.key }))
        .status,
    ).toBe(200);
    const ota = await world.request('POST', '/api/v2/ota/marketplace/booking', {
      key: world.operator.key,
      body: bookingBody('14:00', { PaymentReference: 'ota-pay-1' }),
    });
    expect(ota.status).toBe(201);
    world.otaReference = ota.json.data.BookingReference;

    for (const [meter, day, usage, dimensions] of USAGE) {
      await recordUsage(world.operator.operatorId, {
        Meter: meter,
        Usage: usage,
        OccurredAt: Date.parse(`${day}T10:00:00Z`) / 1000,
        Dimensions: dimensions,
      });
    }
    for (let i = 0; i < ORDERS.count; i += 1) {
      await recordUsage(
        world.operator.operatorId,
        { Meter: 'order-completed', Usage: 1, OccurredAt: Date.parse(`${ORDERS.day}T12:00:00Z`) / 1000 + i },
        { builtIn: true },
      );
    }

    await mkdir(ARTIFACTS, { recursive: true });
    userDataDir = await mkdtemp(path.join(os.tmpdir(), 'dashboard-chromium-'));
    world.context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 860 },
      deviceScaleFactor: 1,
      timezoneId: TIME_ZONE,
      locale: 'en-GB',
      acceptDownloads: true,
    });
    world.page = world.context.pages()[0] ?? (await world.context.newPage());
    world.page.on('request', (sent) => world.requestedUrls.push(sent.url()));
    world.page.on('console', (message) => world.consoleLines.push(message.text()));
    world.page.on('pageerror', (error) => world.consoleLines.push(`pageerror: ${error.message}`));
  });

  afterAll(async () => {
    await world.context?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
    await world.host?.close();
  });

  const open = () => world.page.goto(`${world.host.url}/dashboard/`);
  const screenshot = (name: string) => world.page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  const text = (selector: string) => world.page.locator(selector).innerText();
  const rows = () => world.page.locator('#bookings-table tbody tr');
  const channels = () => rows().evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { channel: string } }).dataset.channel));

  async function signIn(key: string): Promise<void> {
    await open();
    await world.page.locator('#api-key').focus();
    await world.page.keyboard.type(key);
    // The Sign in button is the next stop after the key, and Enter in the field submits too.
    await world.page.keyboard.press('Tab');
    expect(await world.page.evaluate('document.activeElement.textContent')).toBe('Sign in');
    await world.page.keyboard.press('Enter');
  }

  async function setDate(selector: string, value: string): Promise<void> {
    await world.page.locator(selector).fill(value);
  }

  /** Every form control on the page has a label element or an accessible name. */
  async function unlabelledControls(): Promise<string[]> {
    return world.page.evaluate(`[...document.querySelectorAll('input, select, textarea')]
      .filter((control) => !(control.labels && control.labels.length) && !control.getAttribute('aria-label'))
      .map((control) => control.id || control.outerHTML)`);
  }

  /** Pixels of each colour in the chart's plot (above the legend and axis labels), from the canvas itself. */
  /**
   * For each colour, how many pixels of the charts' plot areas (every chart of
   * the usage tab, the legends below them left out) are drawn in it, and the
   * height of its tallest bar as a share of its chart's height.
   */
  async function plotByColour(colours: string[]): Promise<{ pixels: number; tallest: number }[]> {
    return world.page.evaluate(`(() => {
      const wanted = ${JSON.stringify(colours)}.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
      const found = wanted.map(() => ({ pixels: 0, tallest: 0 }));
      for (const canvas of document.querySelectorAll('#usage-charts canvas')) {
        const { data, width, height } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const top = wanted.map(() => height);
        const bottom = wanted.map(() => -1);
        for (let y = 0; y < Math.floor(height * 0.7); y += 1)
          for (let x = 0; x < width; x += 1) {
            const p = (y * width + x) * 4;
            wanted.forEach(([r, g, b], i) => {
              if (data[p] !== r || data[p + 1] !== g || data[p + 2] !== b || data[p + 3] !== 255) return;
              found[i].pixels += 1;
              top[i] = Math.min(top[i], y);
              bottom[i] = Math.max(bottom[i], y);
            });
          }
        wanted.forEach((_, i) => {
          if (bottom[i] >= 0) found[i].tallest = Math.max(found[i].tallest, (bottom[i] - top[i] + 1) / height);
        });
      }
      return found;
    })()`);
  }

  const plotPixelsByColour = async (colours: string[]) => (await plotByColour(colours)).map(({ pixels }) => pixels);

  return { world, open, screenshot, text, rows, channels, signIn, setDate, unlabelledControls, plotPixelsByColour, plotByColour };
}
