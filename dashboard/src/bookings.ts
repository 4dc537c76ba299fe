import { apiGet } from './api';
import { daysAgo, isoDay } from './dates';
import { byId, cell, setStatus, type Panel } from './dom';

interface Money {
  Amount: number;
  Currency: string;
}

interface Booking {
  BookingReference: string;
  Status: 'CONFIRMED' | 'CANCELLED';
  Channel: 'ota' | 'online' | 'pos';
  PartnerKeyID?: string;
  PaymentReference?: string;
  ActivityName: string;
  ActivityID: string;
  Date: string;
  Time: string;
  Participants: number;
  TotalPrice: Money;
  Customer: { FirstName: string; LastName: string; Email: string };
  CreatedAt: string;
  CancelledAt?: string;
}

interface BookingPage {
  Bookings: Booking[];
  NextCursor: string | null;
}

export const CHANNEL_LABELS: Record<Booking['Channel'], string> = { ota: 'OTA partner', online: 'Online', pos: 'Point of sale' };

const money = ({ Amount, Currency }: Money) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: Currency }).format(Amount / 10 ** currencyDigits(Currency));

const currencyDigits = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

const instant = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function line(text: string, className = ''): HTMLSpanElement {
  const span = document.createElement('span');
  span.textContent = text;
  span.className = className || 'line';
  return span;
}

function row(booking: Booking): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.channel = booking.Channel;
  tr.dataset.reference = booking.BookingReference;
  const partner = document.createElement('td');
  if (booking.Channel === 'ota' && booking.PartnerKeyID) partner.append(line(`Partner ${booking.PartnerKeyID}`));
  if (booking.PaymentReference) partner.append(line(`Payment ${booking.PaymentReference}`));
  if (!partner.childNodes.length) partner.textContent = '—';
  const status = cell(booking.Status === 'CANCELLED' ? 'Cancelled' : 'Confirmed', booking.Status === 'CANCELLED' ? 'status cancelled' : 'status');
  if (booking.CancelledAt) status.append(line(instant(booking.CancelledAt), 'detail'));
  const customer = cell(`${booking.Customer.FirstName} ${booking.Customer.LastName}`);
  customer.append(line(booking.Customer.Email, 'detail'));
  tr.append(
    cell(instant(booking.CreatedAt), 'when'),
    cell(booking.BookingReference, 'mono'),
    cell(CHANNEL_LABELS[booking.Channel], `channel channel-${booking.Channel}`),
    partner,
    cell(booking.ActivityName),
    cell(`${booking.Date} ${booking.Time}`, 'when'),
    cell(String(booking.Participants), 'number'),
    cell(money(booking.TotalPrice), 'number'),
    customer,
    status,
  );
  return tr;
}

/** The bookings list: a date range and channel, paged by the API's NextCursor (earlier cursors are kept for Previous). */
export function bookingsPanel(onUnauthorized: (error: unknown) => boolean): Panel {
  const form = byId<HTMLFormElement>('bookings-form');
  const from = byId<HTMLInputElement>('bookings-from');
  const to = byId<HTMLInputElement>('bookings-to');
  const channel = byId<HTMLSelectElement>('bookings-channel');
  const limit = byId<HTMLSelectElement>('bookings-limit');
  const table = byId<HTMLTableElement>('bookings-table');
  const status = byId('bookings-status');
  const previous = byId<HTMLButtonElement>('bookings-previous');
  const next = byId<HTMLButtonElement>('bookings-next');
  const pageLabel = byId('bookings-page');
  const pager = byId('bookings-pager');
  from.value = daysAgo(6);
  to.value = isoDay(new Date());

  /** Cursors of the pages shown so far; the last is the current page's (null for the first page). */
  let cursors: (string | null)[] = [null];
  let nextCursor: string | null = null;
  let request = 0;

  async function load(): Promise<void> {
    const mine = ++request;
    previous.disabled = next.disabled = true;
    setStatus(status, 'loading', 'Loading bookings…');
    form.setAttribute('aria-busy', 'true');
    try {
      const page = await apiGet<BookingPage>('/api/v2/bookings', {
        from: from.value,
        to: to.value,
        channel: channel.value || undefined,
        limit: limit.value,
        cursor: cursors.at(-1) ?? undefined,
      });
      if (mine !== request) return;
      nextCursor = page.NextCursor;
      const body = table.tBodies[0];
      body.replaceChildren(...page.Bookings.map(row));
      table.hidden = page.Bookings.length === 0;
      const pageNumber = cursors.length;
      pageLabel.textContent = `Page ${pageNumber}`;
      if (page.Bookings.length) setStatus(status, 'done', `${page.Bookings.length} booking${page.Bookings.length === 1 ? '' : 's'} on this page.`);
      else setStatus(status, 'empty', pageNumber > 1 ? 'No more bookings in this range.' : 'No bookings were made in this range.');
      pager.hidden = cursors.length <= 1 && !nextCursor;
      previous.disabled = cursors.length <= 1;
      next.disabled = !nextCursor;
    } catch (error) {
      if (mine !== request || onUnauthorized(error)) return;
      table.hidden = pager.hidden = true;
      setStatus(status, 'error', error, 'bookings:read');
    } finally {
      if (mine === request) form.removeAttribute('aria-busy');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    cursors = [null];
    void load();
  });
  channel.addEventListener('change', () => form.requestSubmit());
  next.addEventListener('click', () => {
    if (!nextCursor) return;
    cursors.push(nextCursor);
    void load();
  });
  previous.addEventListener('click', () => {
    if (cursors.length <= 1) return;
    cursors.pop();
    void load();
  });

  return {
    show: () => {
      cursors = [null];
      void load();
    },
    reset: () => {
      table.tBodies[0].replaceChildren();
      table.hidden = pager.hidden = true;
      setStatus(status, 'idle', '');
    },
  };
}
