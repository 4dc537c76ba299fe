import { addDays } from '../../shared/core/calendar';
import { tomorrow } from '../support/catalog';
import { dashboardWorld, TIME_ZONE, bookingBody } from '../support/dashboard';

/**
 * The operator dashboard in headless Chromium against the local host: how it
 * is served, signing in, the bookings of every channel, the manifest, and the
 * key kept out of URLs, logs and storage (usage: dashboard-usage.test.ts).
 */

const { world, screenshot, text, rows, channels, signIn, setDate, unlabelledControls } = dashboardWorld();

describe('operator dashboard', () => {
  it('is served by the local host at /dashboard with a strict content security policy', async () => {
    const bare = await fetch(`${world.host.url}/dashboard`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/dashboard/');
    const index = await fetch(`${world.host.url}/dashboard/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await index.text()).toContain('Operator dashboard');
    const traversal = await fetch(`${world.host.url}/dashboard/..%2Fsite.ts`);
    expect(traversal.status).toBe(404);
    expect(traversal.headers.get('content-type')).toBe('application/problem+json');
  });

  it('signs in with the keyboard and shows OTA and point-of-sale bookings side by side, filtered and paged', async () => {
    await signIn(world.operator.key);
    expect(await world.page.evaluate('document.activeElement.id')).toBe('tab-bookings');
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await unlabelledControls()).toEqual([]);

    // The default range (the last seven days) holds today's bookings; the default page is 25 rows.
    expect(await rows().count()).toBe(12);
    const all = await channels();
    expect(all.slice(0, 2)).toEqual(['ota', 'ota']);
    expect(new Set(all)).toEqual(new Set(['ota', 'online', 'pos']));
    const ota = world.page.locator(`#bookings-table tr[data-reference="${world.otaReference}"]`);
    expect(await ota.innerText()).toMatch(/OTA partner\s+Partner key_\w+\s+Payment ota-pay-1[\s\S]*Confirmed/);
    const cancelled = world.page.locator(`#bookings-table tr[data-reference="${world.cancelledReference}"]`);
    expect(await cancelled.innerText()).toMatch(/Payment ota-pay-2[\s\S]*Cancelled\s+\d/);
    const pos = world.page.locator(`#bookings-table tr[data-reference="${world.posReference}"]`);
    expect(await pos.innerText()).toMatch(
      /Point of sale\s+Payment till-1[\s\S]*Harbour Walking Tour[\s\S]*€20\.00[\s\S]*Inês Costa[\s\S]*Confirmed/,
    );
    await screenshot('bookings');

    // Filter by channel with the keyboard: the select changes and the list reloads at once.
    await world.page.locator('#bookings-channel').focus();
    await world.page.locator('#bookings-channel').selectOption('pos');
    // Choosing a channel starts the reload at once (the status turns to loading), so "done" is the filtered list.
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await channels()).toEqual(Array(6).fill('pos'));

    // Ten rows a page: the next page holds the rest, and Previous goes back.
    await world.page.locator('#bookings-channel').selectOption('');
    await world.page.locator('#bookings-limit').selectOption('10');
    await world.page.locator('#bookings-to').focus();
    await world.page.keyboard.press('Enter');
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await rows().count()).toBe(10);
    const firstPage = await rows().evaluateAll((trs) =>
      trs.map((tr) => (tr as unknown as { dataset: { reference: string } }).dataset.reference),
    );
    await world.page.locator('#bookings-next').focus();
    await world.page.keyboard.press('Enter');
    await world.page.locator('#bookings-page', { hasText: 'Page 2' }).waitFor();
    const secondPage = await rows().evaluateAll((trs) =>
      trs.map((tr) => (tr as unknown as { dataset: { reference: string } }).dataset.reference),
    );
    expect(secondPage).toHaveLength(2);
    expect(new Set([...firstPage, ...secondPage]).size).toBe(12);
    expect(await world.page.locator('#bookings-next').isDisabled()).toBe(true);
    await world.page.locator('#bookings-previous').click();
    await world.page.locator('#bookings-page', { hasText: 'Page 1' }).waitFor();
    expect(await world.page.locator('#bookings-previous').isDisabled()).toBe(true);

    // A range without bookings says so.
    await setDate('#bookings-from', '2020-01-01');
    await setDate('#bookings-to', '2020-01-31');
    await world.page.locator('#bookings-form button[type="submit"]').click();
    await world.page.locator('#bookings-status[data-state="empty"]').waitFor();
    expect(await text('#bookings-status')).toBe('No bookings were made in this range.');
    expect(await world.page.locator('#bookings-table').isHidden()).toBe(true);
  });

  it('shows a printable manifest of a day by timeslot, holds with their expiry, and cancels with a reason for a key with bookings:write', async () => {
    const held = await world.request('POST', '/api/v2/ota/marketplace/booking', {
      key: world.operator.key,
      body: bookingBody('14:00', {
        Customer: { FirstName: 'Zé', LastName: 'Almeida', Email: 'ze@example.com' },
        Hold: { ExpiresInMinutes: 30 },
      }),
    });
    expect(held.status).toBe(201);
    await world.page.locator('#tab-manifest').click();
    await setDate('#manifest-date', tomorrow(TIME_ZONE));
    await world.page.locator('#manifest-form button[type="submit"]').click();
    await world.page.locator('#manifest-status[data-state="done"]').waitFor();
    const headings = await world.page.locator('.manifest-slot h3').allInnerTexts();
    // Every timeslot of the day, the hidden activity's that nobody booked too.
    expect(headings.map((heading) => heading.split('\n')[0])).toEqual([
      '09:00 · Harbour Walking Tour',
      '10:00 · Staff Only Tour',
      '14:00 · Harbour Walking Tour',
    ]);
    expect(headings[1]).toMatch(/^10:00 · Staff Only Tour\s+0 participants\s+Capacity 5, 5 left$/);
    expect(headings[2]).toMatch(/participants, 2 of them on hold/);
    const holdRow = world.page.locator(`.manifest-slot tr[data-reference="${held.json.data.BookingReference}"]`);
    expect(await holdRow.innerText()).toMatch(/Almeida[\s\S]*On hold\s+until/);
    expect(await world.page.locator('#manifest-print').isEnabled()).toBe(true);
    await world.page.emulateMedia({ media: 'print' });
    expect(await world.page.locator('#manifest-form').isHidden()).toBe(true);
    expect(await world.page.locator('.tabs').isHidden()).toBe(true);
    await screenshot('manifest-print');
    await world.page.emulateMedia({ media: 'screen' });

    // The key has bookings:write: the Cancel button asks for the reason and cancels.
    world.page.once('dialog', (dialog) => void dialog.accept('Guide ill'));
    await holdRow.locator('button.cancel-booking').click();
    await world.page.locator(`.manifest-slot tr[data-reference="${held.json.data.BookingReference}"]`).waitFor({ state: 'detached' });
    const cancelled = await world.request('GET', `/api/v2/ota/marketplace/booking/${held.json.data.BookingReference}`, {
      key: world.operator.key,
    });
    expect(cancelled.json.data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'operator', CancellationReason: 'Guide ill' });
    await world.page.locator('#tab-bookings').click();
  });

  it('changes the day from the manifest for a key with availability:write: a capacity, a close with its reason, a reopening, and a timeslot cancelled with its bookings', async () => {
    const day = addDays(tomorrow(TIME_ZONE), 1);
    const made = [];
    for (const time of ['09:00', '09:00', '14:00']) {
      const booked = await world.request('POST', '/api/v2/ota/marketplace/booking', {
        key: world.operator.key,
        body: bookingBody(time, { Date: day }),
      });
      expect(booked.status).toBe(201);
      made.push(booked.json.data.BookingReference as string);
    }
    await world.page.locator('#tab-manifest').click();
    await setDate('#manifest-date', day);
    await world.page.locator('#manifest-form button[type="submit"]').click();
    await world.page.locator('#manifest-status[data-state="done"]').waitFor();
    const section = (time: string) => world.page.locator(`.manifest-slot[data-time="${time}"]`);
    expect(await section('09:00').locator('.slot-capacity').first().innerText()).toBe('Capacity 40, 36 left');
    expect(await unlabelledControls()).toEqual([]);

    // A capacity: set, and refused below what is taken with the API's words.
    await section('09:00').locator('input.slot-capacity-input').fill('30');
    await section('09:00').locator('button.set-capacity').click();
    await world.page.locator('#manifest-status', { hasText: '09:00 Harbour Walking Tour now has a capacity of 30.' }).waitFor();
    expect(await section('09:00').locator('.slot-capacity').first().innerText()).toBe('Capacity 30, 26 left');
    await section('09:00').locator('input.slot-capacity-input').fill('3');
    await section('09:00').locator('button.set-capacity').click();
    await world.page.locator('#manifest-status[data-state="error"]').waitFor();
    expect(await text('#manifest-status')).toMatch(
      /^Field 'Capacity' is 3, below the 4 place\(s\) already taken \(held or booked\) .* \(409\)$/,
    );

    // Closed with a reason: the manifest says who closed it and why, and the marketplace no longer sells it; then reopened.
    world.page.once('dialog', (dialog) => void dialog.accept('Storm'));
    await section('14:00').locator('button.close-timeslot').click();
    await world.page.locator('#manifest-status', { hasText: '14:00 Harbour Walking Tour is closed.' }).waitFor();
    expect(await section('14:00').locator('.slot-closed').innerText()).toMatch(/^Closed by key_\w+ .+: Storm$/);
    const sold = async () =>
      (
        await world.request('GET', `/api/v2/ota/marketplace/availability/s_walk1/timeslots?Date=${day}`, { key: world.operator.key })
      ).json.data.map((slot: { Time: string }) => slot.Time);
    expect(await sold()).toEqual(['09:00']);
    await screenshot('manifest-timeslot-closed');
    await section('14:00').locator('button.reopen-timeslot').click();
    await world.page.locator('#manifest-status', { hasText: '14:00 Harbour Walking Tour is open for sale again.' }).waitFor();
    expect(await section('14:00').locator('.slot-closed').count()).toBe(0);
    expect(await sold()).toEqual(['09:00', '14:00']);

    // Cancelled with every booking on it, with the reason each partner is told.
    world.page.once('dialog', (dialog) => void dialog.accept('Engine failure'));
    await section('09:00').locator('button.cancel-timeslot').click();
    await world.page.locator('#manifest-status', { hasText: '09:00 Harbour Walking Tour is cancelled: 2 booking(s) cancelled.' }).waitFor();
    expect(await section('09:00').locator('h3').innerText()).toMatch(
      /0 participants\s+Capacity 30, 30 left\s+Closed by key_\w+ .+: Engine failure/,
    );
    for (const reference of made.slice(0, 2)) {
      const booking = await world.request('GET', `/api/v2/ota/marketplace/booking/${reference}`, { key: world.operator.key });
      expect(booking.json.data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'operator', CancellationReason: 'Engine failure' });
    }

    // A key without availability:write sees the day without its controls.
    await world.page.locator('#sign-out').click();
    await signIn(await world.operator.keyWith(['bookings:read', 'bookings:write']));
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    await world.page.locator('#tab-manifest').click();
    await setDate('#manifest-date', day);
    await world.page.locator('#manifest-form button[type="submit"]').click();
    await world.page.locator('#manifest-status[data-state="done"]').waitFor();
    expect(await world.page.locator('.manifest-slot').count()).toBe(2);
    expect(await world.page.locator('.slot-controls').count()).toBe(0);
    await world.page.locator('#sign-out').click();
    await signIn(world.operator.key);
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
  });

  it('offers no Cancel button to a key without bookings:write', async () => {
    await world.page.locator('#sign-out').click();
    await signIn(await world.operator.keyWith(['bookings:read', 'usage:read']));
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await rows().count()).toBeGreaterThan(0);
    expect(await world.page.locator('#bookings-table button.cancel-booking').count()).toBe(0);
    await world.page.locator('#sign-out').click();
    await signIn(world.operator.key);
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await world.page.locator('#bookings-table button.cancel-booking').count()).toBeGreaterThan(0);
  });

  it("shows an OCTo reseller's booking as its key's, with the reseller's reference", async () => {
    const reserved = await world.request('POST', '/octo/bookings', {
      key: world.operator.key,
      body: {
        productId: 's_walk1',
        optionId: 'DEFAULT',
        availabilityId: `${tomorrow(TIME_ZONE)}T09:00:00+00:00`,
        unitItems: [{ unitId: 'adult' }],
      },
    });
    expect(reserved.status).toBe(200);
    const confirmed = await world.request('POST', `/octo/bookings/${reserved.json.uuid}/confirm`, {
      key: world.operator.key,
      body: { resellerReference: 'RES-E2E', contact: { firstName: 'Rui', lastName: 'Costa', emailAddress: 'rui@example.com' } },
    });
    expect(confirmed.status).toBe(200);
    await world.page.locator('#sign-out').click();
    await signIn(world.operator.key);
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    const row = world.page.locator(`#bookings-table tr[data-reference="${reserved.json.id}"]`);
    expect(await row.innerText()).toMatch(/OTA partner\s+Partner key_\w+\s+Reseller RES-E2E[\s\S]*Rui Costa[\s\S]*Confirmed/);
  });

  it('says when a key lacks a scope (403) and when it is refused (401)', async () => {
    await world.page.locator('#sign-out').click();
    await world.page.locator('#sign-in-screen').waitFor();
    expect(await world.page.evaluate('sessionStorage.length')).toBe(0);

    const usageOnly = await world.operator.keyWith(['usage:read']);
    await signIn(usageOnly);
    await world.page.locator('#bookings-status[data-state="error"]').waitFor();
    expect(await text('#bookings-status')).toBe('This API key lacks the bookings:read scope (403). Ask for a key that has it.');
    await world.page.locator('#tab-usage').click();
    await world.page.locator('#usage-status[data-state]:not([data-state="loading"])').waitFor();
    expect(await world.page.locator('#usage-status').getAttribute('data-state')).not.toBe('error');
    await world.page.locator('#tab-bookings').click();
    await screenshot('forbidden');
    await world.page.locator('#sign-out').click();

    await signIn('ak_thisKeyDoesNotExist0000000000000000000000000');
    await world.page.locator('#sign-in-message:not([hidden])').waitFor();
    expect(await text('#sign-in-message')).toBe(
      'The API key was refused (401): it is invalid, expired or revoked. Sign in with a current key.',
    );
    expect(await world.page.locator('#dashboard-screen').isHidden()).toBe(true);
    expect(await world.page.evaluate('sessionStorage.length')).toBe(0);
    expect(await unlabelledControls()).toEqual([]);
    await screenshot('sign-in');
  });

  it('keeps the key out of URLs, logs and persistent storage', async () => {
    await signIn(world.operator.key);
    await world.page.locator('#bookings-status[data-state="done"]').waitFor();
    expect(await world.page.evaluate('sessionStorage.getItem("ota-dashboard.api-key")')).toBe(world.operator.key);
    expect(await world.page.evaluate('localStorage.length')).toBe(0);
    expect(world.requestedUrls.length).toBeGreaterThan(10);
    expect(world.requestedUrls.filter((url) => url.includes('ak_'))).toEqual([]);
    expect(world.consoleLines.filter((line) => line.includes('ak_'))).toEqual([]);
    expect(world.consoleLines.filter((line) => line.startsWith('pageerror'))).toEqual([]);
    expect(world.page.url()).toBe(`${world.host.url}/dashboard/`);
  });
});
