import { chromium, type Browser } from 'playwright-core';
import type { LocalHost } from '../../lib/local/host';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium';
import { startTestHost } from '../support/fixtures';

/**
 * The API reference page in headless Chromium: it renders under the
 * dashboard's Content-Security-Policy, and nothing is requested from
 * another origin.
 */

let host: LocalHost;
let browser: Browser;

beforeAll(async () => {
  host = await startTestHost();
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

it('renders every operation of the document, loading nothing from another origin, with no script blocked', async () => {
  const page = await browser.newPage();
  const requested: string[] = [];
  const violations: string[] = [];
  page.on('request', (sent) => requested.push(sent.url()));
  await page.exposeFunction('reportViolation', (directive: string) => violations.push(directive));
  // Runs in the page, before its scripts: every CSP violation is reported to the test.
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (event) => window.reportViolation(event.effectiveDirective));",
  });
  await page.goto(`${host.url}/docs`);
  await page.getByRole('heading', { name: 'Book a timeslot' }).waitFor();
  const openapi = (await (await fetch(`${host.url}/api/v2/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { summary: string }>>;
  };
  const summaries = Object.values(openapi.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.summary));
  const text = await page.textContent('body');
  for (const summary of summaries) expect(text).toContain(summary);
  expect(requested.filter((url) => !url.startsWith(`${host.url}/`))).toEqual([]);
  // Only the two stylesheets Redoc's bundle inserts before it has the page's nonce (README, "The local host").
  expect(violations.filter((directive) => directive !== 'style-src-elem')).toEqual([]);
  expect(violations.length).toBeLessThanOrEqual(2);
  await page.close();
});
