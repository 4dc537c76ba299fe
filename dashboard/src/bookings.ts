import { apiGet, canCancelBookings } from './api';
import type { Booking, BookingList } from '../../shared/booking/schemas';
import type { Money } from '../../shared/catalog/schemas';
import { isLive } from '../../shared/booking/lifecycle';
import { CHANNEL_LABELS, cancelButton, customerCell, instant, line, statusCell } from './booking-view';
import { daysAgo, isoDay } from './dates';
import { byId, cell, setStatus, type Panel, type StatusKind } from './dom';

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

/** The pages read so far, by the API's NextCursor: the cursors of earlier pages are kept for Previous. */
function bookingsPager(load: () => void) {
  const previous = byId<HTMLButtonElement>('bookings-previous');
  const next = byId<HTMLButtonElement>('bookings-next');
  const pageLabel = byId('bookings-page');
  const pager = byId('bookings-pager');
  /** Cursors of the pages shown so far; the last is the current page's (null for the first page). */
  let cursors: (string | null)[] = [null];
  let nextCursor: string | null = null;

  next.addEventListener('click', () => {
    if (!nextCursor) return;
    cursors.push(nextCursor);
    load();
  });
  previous.addEventListener('click', () => {
    if (cursors.length <= 1) return;
    cursors.pop();
    load();
  });

  return {
    /** The current page's cursor; undefined for the first page. */
    cursor: () => cursors.at(-1) ?? undefined,
    pageNumber: () => cursors.length,
    toFirstPage(): void {
      cursors = [null];
    },
    loading(): void {
      previous.disabled = next.disabled = true;
    },
    /** A page shown, and the cursor of the page after it (null for the last). */
    shown(following: string | null): void {
      nextCursor = following;
      pageLabel.textContent = `Page ${cursors.length}`;
      pager.hidden = cursors.length <= 1 && !nextCursor;
      previous.disabled = cursors.length <= 1;
      next.disabled = !nextCursor;
    },
    hide(): void {
      pager.hidden = true;
    },
  };
}

/** The bookings table: a row per booking, with Cancel for held and confirmed bookings when the key may cancel. */
function bookingsTable(status: HTMLElement) {
  const table = byId<HTMLTableElement>('bookings-table');

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

  return {
    show(bookings: Booking[], mayCancel: boolean): void {
      table.tBodies[0].replaceChildren(...bookings.map((booking) => row(booking, actionsFor(booking, mayCancel))));
      table.classList.toggle('with-actions', mayCancel);
      table.hidden = bookings.length === 0;
    },
    hide(): void {
      table.hidden = true;
    },
    clear(): void {
      table.tBodies[0].replaceChildren();
      table.hidden = true;
    },
  };
}

/** The status line of a page shown. */
function pageStatus(count: number, pageNumber: number): [StatusKind, string] {
  if (count) return ['done', `${count} booking${count === 1 ? '' : 's'} on this page.`];
  return ['empty', pageNumber > 1 ? 'No more bookings in this range.' : 'No bookings were made in this range.'];
}

/** The filters: a date range, a channel (applied as soon as it is chosen) and the page size. */
function bookingsForm(submit: () => void) {
  const form = byId<HTMLFormElement>('bookings-form');
  const from = byId<HTMLInputElement>('bookings-from');
  const to = byId<HTMLInputElement>('bookings-to');
  const channel = byId<HTMLSelectElement>('bookings-channel');
  const limit = byId<HTMLSelectElement>('bookings-limit');
  from.value = daysAgo(6);
  to.value = isoDay(new Date());

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (form.reportValidity()) submit();
  });
  channel.addEventListener('change', () => form.requestSubmit());

  return {
    element: form,
    query: () => ({ from: from.value, to: to.value, channel: channel.value || undefined, limit: limit.value }),
  };
}

/** The bookings list: the filters, a table of the page read, and the pager. */
export function bookingsPanel(onUnauthorized: (error: unknown) => boolean): Panel {
  const status = byId('bookings-status');
  const table = bookingsTable(status);
  const pager = bookingsPager(() => void load());
  const form = bookingsForm(() => {
    pager.toFirstPage();
    void load();
  });
  let request = 0;
  /** Whether this key may cancel (bookings:write); asked once per sign-in. */
  let mayCancel: Promise<boolean> | undefined;

  async function load(): Promise<void> {
    const mine = ++request;
    pager.loading();
    setStatus(status, 'loading', 'Loading bookings…');
    form.element.setAttribute('aria-busy', 'true');
    try {
      const page = await apiGet<BookingList>('/api/v2/bookings', { ...form.query(), cursor: pager.cursor() });
      mayCancel ??= canCancelBookings();
      const allowed = await mayCancel;
      if (mine !== request) return;
      table.show(page.Bookings, allowed);
      pager.shown(page.NextCursor);
      setStatus(status, ...pageStatus(page.Bookings.length, pager.pageNumber()));
    } catch (error) {
      if (mine !== request || onUnauthorized(error)) return;
      table.hide();
      pager.hide();
      setStatus(status, 'error', error, 'bookings:read');
    } finally {
      if (mine === request) form.element.removeAttribute('aria-busy');
    }
  }

  return {
    show: () => {
      pager.toFirstPage();
      void load();
    },
    reset: () => {
      mayCancel = undefined;
      table.clear();
      pager.hide();
      setStatus(status, 'idle', '');
    },
  };
}
