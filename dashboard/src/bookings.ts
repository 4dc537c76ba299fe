import { apiGet, canCancelBookings } from './api';
import type { Booking, BookingList } from '../../shared/booking/schemas';
import type { Money } from '../../shared/catalog/schemas';
import { CHANNEL_LABELS, cancelButton, customerCell, instant, isLive, line, statusCell } from './booking-view';
import { daysAgo, isoDay } from './dates';
import { byId, cell, setStatus, type Panel } from './dom';

const money = ({ Amount, Currency }: Money) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: Currency }).format(Amount / 10 ** currencyDigits(Currency));

const currencyDigits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

function row(booking: Booking, actions: HTMLTableCellElement): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.channel = booking.Channel;
  tr.dataset.reference = booking.BookingReference;
  const partner = document.createElement('td');
  if (booking.Channel === 'ota' && booking.PartnerKeyID) partner.append(line(`Partner ${booking.PartnerKeyID}`));
  if (booking.ResellerReference) partner.append(line(`Reseller ${booking.ResellerReference}`));
  if (booking.PaymentReference) partner.append(line(`Payment ${booking.PaymentReference}`));
  if (!partner.childNodes.length) partner.textContent = '—';
  tr.append(
    cell(instant(booking.CreatedAt), 'when'),
    cell(booking.BookingReference, 'mono'),
    cell(CHANNEL_LABELS[booking.Channel], `channel channel-${booking.Channel}`),
    partner,
    cell(booking.ActivityName),
    cell(`${booking.Date} ${booking.Time}`, 'when'),
    cell(String(booking.Participants), 'number'),
    cell(money(booking.TotalPrice), 'number'),
    customerCell(booking),
    statusCell(booking),
    actions,
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
  /** Whether this key may cancel (bookings:write); asked once per sign-in. */
  let mayCancel: Promise<boolean> | undefined;

  /** The last column: Cancel for held and confirmed bookings, when the key may cancel. */
  function actionsFor(booking: Booking, allowed: boolean): HTMLTableCellElement {
    const actions = cell('', 'actions');
    if (!allowed || !isLive(booking)) return actions;
    actions.append(
      cancelButton(booking, ({ booking: cancelled, message }) => {
        setStatus(status, cancelled ? 'done' : 'error', message);
        if (!cancelled) return;
        const current = table.tBodies[0].querySelector(`tr[data-reference="${cancelled.BookingReference}"]`);
        current?.replaceWith(row(cancelled, actionsFor(cancelled, allowed)));
      }),
    );
    return actions;
  }

  async function load(): Promise<void> {
    const mine = ++request;
    previous.disabled = next.disabled = true;
    setStatus(status, 'loading', 'Loading bookings…');
    form.setAttribute('aria-busy', 'true');
    try {
      const page = await apiGet<BookingList>('/api/v2/bookings', {
        from: from.value,
        to: to.value,
        channel: channel.value || undefined,
        limit: limit.value,
        cursor: cursors.at(-1) ?? undefined,
      });
      mayCancel ??= canCancelBookings();
      const allowed = await mayCancel;
      if (mine !== request) return;
      nextCursor = page.NextCursor;
      const body = table.tBodies[0];
      body.replaceChildren(...page.Bookings.map((booking) => row(booking, actionsFor(booking, allowed))));
      table.classList.toggle('with-actions', allowed);
      table.hidden = page.Bookings.length === 0;
      const pageNumber = cursors.length;
      pageLabel.textContent = `Page ${pageNumber}`;
      if (page.Bookings.length)
        setStatus(status, 'done', `${page.Bookings.length} booking${page.Bookings.length === 1 ? '' : 's'} on this page.`);
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
      mayCancel = undefined;
      table.tBodies[0].replaceChildren();
      table.hidden = pager.hidden = true;
      setStatus(status, 'idle', '');
    },
  };
}
