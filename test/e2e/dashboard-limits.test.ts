import { createTestOperator } from '../support/fixtures';
import { dashboardWorld } from '../support/dashboard';
import { limitsClient } from '../support/usage';
import { recordUsage } from '../../shared/usage/record-usage';

/**
 * The usage tab in headless Chromium: each usage limit as used / amount in
 * its current period with its thresholds, the crossed ones marked; and each
 * meter drawn on a scale of its own, so that a meter of a few orders a day
 * reads as plainly beside one of thousands of calls.
 */
const { world, screenshot, text, signIn, setDate, unlabelledControls, plotByColour } = dashboardWorld();

const hexOf = (rgb: string) => `#${(rgb.match(/\d+/g) ?? []).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;

beforeAll(async () => {
  const limits = limitsClient(world.request, world.operator);
  await limits.put('api-monthly', { Meter: 'api-calls', Period: 'MONTH', Amount: 100, Thresholds: [50, 80, 100], Enforcement: 'NONE' });
  await limits.put('pro-daily', {
    Meter: 'api-calls',
    Filter: { Plan: 'pro' },
    Period: 'DAY',
    Amount: 10,
    Thresholds: [100],
    Enforcement: 'REFUSE',
  });
  await limits.put('orders-daily', { Meter: 'order-completed', Period: 'DAY', Amount: 8, Thresholds: [50], Enforcement: 'NONE' });
  await recordUsage(world.operator.operatorId, { Meter: 'api-calls', Usage: 60.5 });
  await recordUsage(world.operator.operatorId, { Meter: 'api-calls', Usage: 10, Dimensions: { Plan: 'pro' } });
  await signIn(world.operator.key);
  await world.page.locator('#bookings-status[data-state="done"]').waitFor();
});

describe('usage limits on the dashboard', () => {
  it('lists each limit as used / amount with its thresholds, those crossed marked, and whether it refuses', async () => {
    await world.page.locator('#tab-usage').click();
    await world.page.locator('#limits-status[data-state="done"]').waitFor();
    expect(await text('#limits-status')).toBe('3 usage limits, 1 reached, in their current periods.');
    const rows = await world.page
      .locator('#limits-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...(tr as unknown as { cells: { innerText: string }[] }).cells].map((one) => one.innerText.replace(/\s+/g, ' ').trim()),
        ),
      );
    expect(rows.map((row) => row.slice(0, 6))).toEqual([
      ['api-monthly', 'api-calls', 'Month (UTC)', '70.5 / 100', '50% crossed 80% 100%', 'Alerts only'],
      ['orders-daily', 'order-completed', 'Day (UTC)', '0 / 8', '50%', 'Alerts only'],
      ['pro-daily', 'api-calls Plan = pro', 'Day (UTC)', '10 / 10', '100% crossed', 'Refuses past the amount'],
    ]);
    const today = new Date();
    const tomorrow = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1)).toISOString().slice(0, 10);
    expect(rows[2][6]).toBe(`${tomorrow} 00:00`);
    const gauges = await world.page.locator('#limits-table meter').evaluateAll((meters) =>
      meters.map((meter) => {
        const gauge = meter as unknown as { value: number; max: number; getAttribute(name: string): string };
        return [gauge.value, gauge.max, gauge.getAttribute('aria-label')];
      }),
    );
    expect(gauges[0]).toEqual([70.5, 100, '70.5 used of 100, 29.5 remaining']);
    expect(await world.page.locator('#limits-table tbody tr[data-limit="pro-daily"] td.refusing').count()).toBe(1);
    expect(await unlabelledControls()).toEqual([]);
    await world.page.evaluate('document.activeElement.blur()');
    await screenshot('usage-limits');
  });

  it('says when no limit is set', async () => {
    const bare = await createTestOperator(undefined, { stem: 'dash-no-limits', timeZone: 'UTC' });
    await world.page.locator('#sign-out').click();
    await signIn(bare.key);
    await world.page.locator('#tab-usage').click();
    await world.page.locator('#limits-status[data-state="empty"]').waitFor();
    expect(await text('#limits-status')).toBe('No usage limits are set.');
    expect(await world.page.locator('#limits-table').isHidden()).toBe(true);
  });
});

describe('a scale a person can read', () => {
  it('draws each meter on its own scale: orders by the handful as tall as calls by the thousand', async () => {
    // The demo's proportions: about 5,000 API calls and 5 orders a day.
    const busy = await createTestOperator(undefined, { stem: 'dash-scales', timeZone: 'UTC' });
    for (let day = 1; day <= 7; day += 1) {
      const at = Date.parse(`2026-03-0${day}T12:00:00Z`) / 1000;
      await recordUsage(busy.operatorId, { Meter: 'api-calls', Usage: 4800 + day * 50, OccurredAt: at });
      for (let i = 0; i < 4 + (day % 3); i += 1) {
        await recordUsage(busy.operatorId, { Meter: 'order-completed', Usage: 1, OccurredAt: at + i }, { builtIn: true });
      }
    }
    await world.page.locator('#sign-out').click();
    await signIn(busy.key);
    await world.page.locator('#tab-usage').click();
    await world.page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    await setDate('#usage-from', '2026-03-01');
    await setDate('#usage-to', '2026-03-07');
    await world.page.locator('#usage-form button[type="submit"]').click();
    await world.page.locator('#usage-status[data-state="done"]').waitFor();

    const headings = await world.page.locator('#usage-charts .meter-chart h3').allInnerTexts();
    expect(headings.map((heading) => heading.trim())).toEqual(['api-calls', 'order-completed']);
    const colours = await world.page
      .locator('#usage-table tbody .swatch')
      .evaluateAll((swatches) =>
        swatches.map((swatch) => (swatch as unknown as { style: { backgroundColor: string } }).style.backgroundColor),
      );
    const [calls, orders] = await plotByColour(colours.map(hexOf));
    // Each meter's tallest day fills most of its chart's height; on one shared axis the orders would be a thousandth of it.
    expect(calls.tallest).toBeGreaterThan(0.4);
    expect(orders.tallest).toBeGreaterThan(0.4);
    expect(orders.pixels).toBeGreaterThan(calls.pixels / 3);
    expect(
      await world.page.locator('#usage-charts canvas').evaluateAll((canvases) => canvases.map((one) => one.getAttribute('aria-label'))),
    ).toEqual([
      'Daily usage of api-calls; the totals are in the table below',
      'Daily usage of order-completed; the totals are in the table below',
    ]);
    await world.page.evaluate('document.activeElement.blur()');
    await screenshot('usage-scales');
  });
});
