import { readFile } from 'node:fs/promises';
import { addDays } from '../../shared/core/calendar';
import { createTestOperator } from '../support/fixtures';
import { dashboardWorld, ORDERS } from '../support/dashboard';

/**
 * The dashboard's usage tab in headless Chromium against the local host: the
 * chart, the totals and the CSV by day, by month and by dimension, in the
 * operator's time zone.
 */

const { world, screenshot, text, signIn, setDate, unlabelledControls, plotPixelsByColour } = dashboardWorld();

beforeAll(async () => {
  await signIn(world.operator.key);
  await world.page.locator('#bookings-status[data-state="done"]').waitFor();
});

describe('operator dashboard', () => {
  it('draws daily usage per meter, lists the totals and downloads the summary as CSV', async () => {
    // Arrow keys move between tabs (the WAI-ARIA tabs pattern), Tab moves into the panel.
    await world.page.locator('#tab-bookings').focus();
    await world.page.keyboard.press('ArrowRight');
    expect(await world.page.locator('#tab-manifest').getAttribute('aria-selected')).toBe('true');
    await world.page.keyboard.press('ArrowRight');
    expect(await world.page.locator('#tab-usage').getAttribute('aria-selected')).toBe('true');
    expect(await world.page.locator('#panel-usage').isVisible()).toBe(true);
    await world.page.keyboard.press('Tab');
    expect(await world.page.evaluate('document.activeElement.id')).toBe('usage-from');
    await world.page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();

    await setDate('#usage-from', '2026-03-01');
    await setDate('#usage-to', '2026-03-07');
    await world.page.locator('#usage-to').focus();
    await world.page.keyboard.press('Enter');
    await world.page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');

    const totals = await world.page.locator('#usage-table tbody tr').allInnerTexts();
    expect(totals.map((row) => row.split('\t').map((part) => part.trim()))).toEqual([
      ['api-calls', '95', '3'],
      ['storage-gb', '32.75', '2'],
      ['order-completed', '5', '5'],
    ]);
    expect(await text('#usage-total')).toBe('132.75');
    expect(await text('#usage-events')).toBe('10');

    // The chart is drawn: each meter's colour fills bars in the plot area.
    const colours = await world.page
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
    await world.page.evaluate('document.activeElement.blur()');
    await screenshot('usage');

    await world.page.locator('#usage-csv').focus();
    const [download] = await Promise.all([world.page.waitForEvent('download'), world.page.keyboard.press('Enter')]);
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
    await world.page.locator('#usage-form button[type="submit"]').click();
    await world.page.locator('#usage-status[data-state="empty"]').waitFor();
    expect(await text('#usage-status')).toBe('No usage was recorded in this range.');
    expect(await world.page.locator('#usage-csv').isDisabled()).toBe(true);
    expect(await world.page.locator('#usage-figure').isHidden()).toBe(true);
  });

  it('shows a year per month, the view an operator bills from', async () => {
    await setDate('#usage-from', '2025-04-01');
    await setDate('#usage-to', '2026-03-31');
    await world.page.locator('#usage-granularity').selectOption('month');
    await world.page.locator('#usage-form button[type="submit"]').click();
    await world.page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('3 meters, 10 entries from 2025-04-01 to 2026-03-31 (UTC).');
    expect(await text('#usage-caption')).toBe(
      'Monthly usage per meter, each meter on a scale of its own; the totals are in the table below.',
    );
    expect(await text('#usage-total')).toBe('132.75');
    const [download] = await Promise.all([world.page.waitForEvent('download'), world.page.locator('#usage-csv').click()]);
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
    await world.page.locator('#usage-granularity').selectOption('day');
    await world.page.locator('#usage-year').click();
    await world.page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    const today = new Date();
    expect(await world.page.locator('#usage-from').inputValue()).toBe(
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1)).toISOString().slice(0, 10),
    );
    expect(await world.page.locator('#usage-granularity').inputValue()).toBe('month');
    expect(await world.page.locator('#usage-status').getAttribute('data-state')).not.toBe('error');
  });

  it('groups usage by the dimensions typed in, in the table, the chart and the CSV', async () => {
    await setDate('#usage-from', '2026-03-01');
    await setDate('#usage-to', '2026-03-07');
    await world.page.locator('#usage-granularity').selectOption('day');
    await world.page.locator('#usage-group-by').fill('Region');
    await world.page.locator('#usage-form button[type="submit"]').click();
    await world.page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('5 groups by Region of 3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');
    expect(await text('#usage-caption')).toBe(
      'Daily usage per meter and Region, each meter on a scale of its own; the totals are in the table below.',
    );
    expect((await world.page.locator('#usage-table thead th').allInnerTexts()).map((heading) => heading.trim())).toEqual([
      'Meter',
      'Region',
      'Total usage',
      'Entries',
    ]);
    const groups = await world.page.locator('#usage-table tbody tr').allInnerTexts();
    expect(groups.map((row) => row.split('\t').map((part) => part.trim()))).toEqual([
      ['api-calls', 'eu-west', '40', '1'],
      ['storage-gb', 'eu-west', '32.75', '2'],
      ['api-calls', '(none)', '30', '1'],
      ['api-calls', 'us-east', '25', '1'],
      ['order-completed', '(none)', '5', '5'],
    ]);
    expect(await text('#usage-total')).toBe('132.75');
    expect(await world.page.locator('#usage-total-label').getAttribute('colspan')).toBe('2');
    // One series per group, each drawn in its colour.
    const colours = await world.page
      .locator('#usage-table tbody .swatch')
      .evaluateAll((swatches) =>
        swatches.map((swatch) => (swatch as unknown as { style: { backgroundColor: string } }).style.backgroundColor),
      );
    const hex = colours.map((rgb) => `#${(rgb.match(/\d+/g) ?? []).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`);
    expect(new Set(hex).size).toBe(5);
    for (const count of await plotPixelsByColour(hex)) expect(count).toBeGreaterThan(100);
    expect(await unlabelledControls()).toEqual([]);
    await world.page.evaluate('document.activeElement.blur()');
    await screenshot('usage-grouped');

    // Two keys: the CSV has a column for each, empty where an entry lacks the key.
    await world.page.locator('#usage-group-by').fill('Region, Plan');
    await world.page.locator('#usage-form button[type="submit"]').click();
    await world.page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('6 groups by Region, Plan of 3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');
    const [download] = await Promise.all([world.page.waitForEvent('download'), world.page.locator('#usage-csv').click()]);
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
    await world.page.locator('#usage-group-by').fill('Re-gion');
    await world.page.locator('#usage-form button[type="submit"]').click();
    expect(
      await world.page
        .locator('#usage-group-by')
        .evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    ).toBe(false);
    expect(await text('#usage-status')).toMatch(/^6 groups/);
    await world.page.locator('#usage-group-by').fill('');
    await world.page.locator('#usage-form button[type="submit"]').click();
    await world.page.locator('#usage-status[data-state="done"]').waitFor();
    expect(await text('#usage-status')).toBe('3 meters, 10 entries from 2026-03-01 to 2026-03-07 (UTC).');
    expect(await world.page.locator('#usage-table thead th').count()).toBe(3);
  });

  it("names the operator signed in as, and reads usage in the operator's own time zone until told another", async () => {
    const lisbon = await createTestOperator(undefined, { timeZone: 'Europe/Lisbon', stem: 'dash-lisbon' });
    await world.page.locator('#sign-out').click();
    await signIn(lisbon.key);
    await world.page.locator('#signed-in-as:not([hidden])').waitFor();
    expect(await text('#signed-in-as')).toBe(`Test ${lisbon.operatorId} · Europe/Lisbon`);
    await world.page.locator('#tab-usage').click();
    await world.page.locator('#usage-status[data-state="empty"]').waitFor();
    expect(await world.page.locator('#usage-tz').inputValue()).toBe('Europe/Lisbon');
    expect(await text('#usage-status')).toBe('No usage was recorded in this range.');
    // Another zone, chosen by the operator, stays until sign-out.
    await world.page.locator('#usage-tz').fill('Asia/Tokyo');
    await world.page.locator('#usage-tz').dispatchEvent('change');
    await world.page.locator('#tab-bookings').click();
    await world.page.locator('#tab-usage').click();
    expect(await world.page.locator('#usage-tz').inputValue()).toBe('Asia/Tokyo');
    await world.page.locator('#sign-out').click();
    await signIn(world.operator.key);
    await world.page.locator('#tab-usage').click();
    await world.page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    expect(await world.page.locator('#usage-tz').inputValue()).toBe('UTC');
    await world.page.locator('#sign-out').click();
  });
});
