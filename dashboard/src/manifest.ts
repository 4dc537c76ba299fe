import { apiGet, canCancelBookings, keyMay } from './api';
import type { Booking, Manifest, ManifestTimeslot } from '../../shared/booking/schemas';
import { isLive } from '../../shared/booking/lifecycle';
import { CHANNEL_LABELS, cancelButton, customerCell, line, statusCell } from './booking-view';
import { isoDay } from './dates';
import { byId, cell, setStatus, type Panel } from './dom';
import { timeslotControls, timeslotState, type ControlOutcome } from './timeslot-controls';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** One timeslot: a heading with its counts and state, its controls when the key may change it, and a table of who is coming. */
function timeslotSection(
  slot: ManifestTimeslot,
  actionsFor: (booking: Booking) => HTMLTableCellElement,
  controls?: HTMLElement,
): HTMLElement {
  const section = document.createElement('section');
  section.className = `manifest-slot${slot.Closed ? ' closed' : ''}`;
  section.dataset.time = slot.Time;
  section.dataset.activity = slot.ActivityID;
  const heading = document.createElement('h3');
  heading.textContent = `${slot.Time} · ${slot.ActivityName}`;
  heading.append(
    line(
      `${plural(slot.Participants, 'participant')}${slot.HeldParticipants ? `, ${slot.HeldParticipants} of them on hold` : ''}`,
      'detail',
    ),
    timeslotState(slot),
  );
  section.append(heading);
  if (controls) section.append(controls);
  if (!slot.Bookings.length) return section;
  const table = document.createElement('table');
  table.innerHTML =
    '<thead><tr><th scope="col">Customer</th><th scope="col" class="number">Party</th><th scope="col">Reference</th><th scope="col">Channel</th><th scope="col">Waiver</th><th scope="col">Status</th><th scope="col" class="no-print"><span class="visually-hidden">Actions</span></th></tr></thead><tbody></tbody>';
  table.tBodies[0].append(
    ...slot.Bookings.map((booking) => {
      const tr = document.createElement('tr');
      tr.dataset.reference = booking.BookingReference;
      tr.append(
        customerCell(booking),
        cell(String(booking.Participants), 'number'),
        cell(booking.BookingReference, 'mono'),
        cell(CHANNEL_LABELS[booking.Channel], `channel channel-${booking.Channel}`),
        cell(booking.WaiverStatus === 'COMPLETE' ? 'Complete' : 'Pending'),
        statusCell(booking),
        actionsFor(booking),
      );
      return tr;
    }),
  );
  section.append(table);
  return section;
}

/** The manifest: who is coming on one day, by timeslot, printable. */
export function manifestPanel(onUnauthorized: (error: unknown) => boolean): Panel {
  const form = byId<HTMLFormElement>('manifest-form');
  const date = byId<HTMLInputElement>('manifest-date');
  const activity = byId<HTMLInputElement>('manifest-activity');
  const print = byId<HTMLButtonElement>('manifest-print');
  const status = byId('manifest-status');
  const title = byId('manifest-title');
  const slots = byId('manifest-slots');
  date.value = isoDay(new Date());
  let request = 0;
  let mayCancel: Promise<boolean> | undefined;
  let mayChange: Promise<boolean> | undefined;

  /** Reads the day; `after` is what to say once it is shown (the change that made the reading). */
  async function load(after?: string): Promise<void> {
    const mine = ++request;
    setStatus(status, 'loading', 'Loading the manifest…');
    form.setAttribute('aria-busy', 'true');
    try {
      const manifest = await apiGet<Manifest>('/api/v2/bookings', { date: date.value, activity: activity.value.trim() || undefined });
      mayCancel ??= canCancelBookings();
      mayChange ??= keyMay('availability:write');
      const [allowed, changes] = await Promise.all([mayCancel, mayChange]);
      if (mine !== request) return;
      const actionsFor = (booking: Booking): HTMLTableCellElement => {
        const actions = cell('', 'actions no-print');
        if (allowed && isLive(booking)) {
          actions.append(
            cancelButton(booking, ({ booking: cancelled, message }) => {
              // A cancelled booking leaves the manifest, and its timeslot's counts change: read the day again.
              if (cancelled) void load(message);
              else setStatus(status, 'error', message);
            }),
          );
        }
        return actions;
      };
      title.textContent = `Manifest for ${manifest.Date}: ${plural(manifest.Participants, 'participant')}`;
      title.hidden = false;
      // A change of a timeslot changes its counts and state: read the day again, and say what was done.
      const changed = (outcome: ControlOutcome) => {
        if (outcome.message !== undefined) void load(outcome.message);
        else if (!onUnauthorized(outcome.error)) setStatus(status, 'error', outcome.error, 'availability:write');
      };
      const controlsOf = (slot: ManifestTimeslot) => (changes ? timeslotControls(manifest.Date, slot, changed) : undefined);
      slots.replaceChildren(...manifest.Timeslots.map((slot) => timeslotSection(slot, actionsFor, controlsOf(slot))));
      print.disabled = manifest.Timeslots.length === 0;
      if (!manifest.Timeslots.length) setStatus(status, 'empty', 'No timeslots on this day.');
      else setStatus(status, 'done', after ?? `${plural(manifest.Timeslots.length, 'timeslot')}.`);
    } catch (error) {
      if (mine !== request || onUnauthorized(error)) return;
      slots.replaceChildren();
      title.hidden = true;
      print.disabled = true;
      setStatus(status, 'error', error, 'bookings:read');
    } finally {
      if (mine === request) form.removeAttribute('aria-busy');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    void load();
  });
  print.addEventListener('click', () => window.print());

  return {
    show: () => void load(),
    reset: () => {
      mayCancel = undefined;
      mayChange = undefined;
      slots.replaceChildren();
      title.hidden = true;
      setStatus(status, 'idle', '');
    },
  };
}
