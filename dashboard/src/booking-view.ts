import { apiPost, describeError } from './api';
import type { Booking } from '../../shared/booking/schemas';
import { cell } from './dom';

/** A booking as the API shows it (the type its schema derives), and the pieces of it that both the list and the manifest display. */
export type { Booking } from '../../shared/booking/schemas';

export const CHANNEL_LABELS: Record<Booking['Channel'], string> = { ota: 'OTA partner', online: 'Online', pos: 'Point of sale' };

export const instant = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function line(text: string, className = ''): HTMLSpanElement {
  const span = document.createElement('span');
  span.textContent = text;
  span.className = className || 'line';
  return span;
}

const STATUS_LABELS: Record<Booking['Status'], string> = {
  ON_HOLD: 'On hold',
  CONFIRMED: 'Confirmed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
};

/** The status with what the operator needs beside it: when a hold lapses, who cancelled and why. */
export function statusCell(booking: Booking): HTMLTableCellElement {
  const status = cell(STATUS_LABELS[booking.Status], `status status-${booking.Status.toLowerCase().replace('_', '-')}`);
  if (booking.Status === 'ON_HOLD' && booking.HoldExpiresAt) status.append(line(`until ${instant(booking.HoldExpiresAt)}`, 'detail'));
  if (booking.ExpiredAt) status.append(line(instant(booking.ExpiredAt), 'detail'));
  if (booking.CancelledAt)
    status.append(line(`${instant(booking.CancelledAt)}${booking.CancelledBy ? ` by ${booking.CancelledBy}` : ''}`, 'detail'));
  if (booking.CancellationReason) status.append(line(booking.CancellationReason, 'detail'));
  return status;
}

export function customerCell(booking: Booking): HTMLTableCellElement {
  if (!booking.Customer) return cell('Not given yet (hold)', 'detail');
  const customer = cell(`${booking.Customer.FirstName} ${booking.Customer.LastName}`);
  customer.append(line(booking.Customer.Email, 'detail'));
  if (booking.Customer.Phone) customer.append(line(booking.Customer.Phone, 'detail'));
  return customer;
}

/**
 * The Cancel button of a held or confirmed booking: asks for the reason the
 * partner will be told, cancels, and hands the cancelled booking (or the
 * refusal) back to the panel to show.
 */
export function cancelButton(booking: Booking, done: (outcome: { booking?: Booking; message: string }) => void): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'cancel-booking';
  button.textContent = 'Cancel';
  button.setAttribute('aria-label', `Cancel booking ${booking.BookingReference}`);
  button.addEventListener('click', async () => {
    const reason = window.prompt(`Cancel booking ${booking.BookingReference}? The places go back on sale and the partner is told. Reason:`);
    if (reason === null) return;
    button.disabled = true;
    try {
      const cancelled = await apiPost<Booking>(`/api/v2/bookings/${booking.BookingReference}/cancel`, { Reason: reason });
      done({ booking: cancelled, message: `Booking ${cancelled.BookingReference} is cancelled.` });
    } catch (error) {
      button.disabled = false;
      done({ message: describeError(error, 'bookings:write') });
    }
  });
  return button;
}
