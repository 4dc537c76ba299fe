import { apiPatch, apiPost } from './api';
import type { ManifestTimeslot } from '../../shared/booking/schemas';
import type { OperatorTimeslot, TimeslotCancellation } from '../../shared/booking/timeslot-schemas';
import { instant, line } from './booking-view';

/**
 * What the manifest shows of a timeslot beside who is coming (its capacity,
 * what is left, and who closed it, why and since when), and, for a key with
 * availability:write, its controls: a capacity, close with a reason,
 * reopen, cancel the timeslot with every booking on it. Each control calls
 * the operator's timeslot API and hands the outcome back to the manifest,
 * which reads the day again.
 */

/** A change made (what to say), or refused (the error, for the manifest's status line to word). */
export type ControlOutcome = { message: string; error?: undefined } | { error: unknown; message?: undefined };

export function timeslotState(slot: ManifestTimeslot): HTMLSpanElement {
  const state = line(`Capacity ${slot.Capacity}, ${slot.Vacancies} left`, 'detail slot-capacity');
  if (slot.Closed) {
    const since = slot.ClosedAt ? ` ${instant(slot.ClosedAt)}` : '';
    const by = slot.ClosedBy ? ` by ${slot.ClosedBy}` : '';
    state.append(line(`Closed${by}${since}${slot.ClosedReason ? `: ${slot.ClosedReason}` : ''}`, 'detail slot-closed'));
  }
  return state;
}

function button(text: string, label: string, className: string): HTMLButtonElement {
  const control = document.createElement('button');
  control.type = 'button';
  control.className = className;
  control.textContent = text;
  control.setAttribute('aria-label', label);
  return control;
}

/** Runs a change from a control, with the control disabled meanwhile, and reports it. */
async function run(controls: HTMLButtonElement[], change: () => Promise<string>, done: (outcome: ControlOutcome) => void) {
  for (const control of controls) control.disabled = true;
  try {
    done({ message: await change() });
  } catch (error) {
    done({ error });
  } finally {
    for (const control of controls) control.disabled = false;
  }
}

export function timeslotControls(date: string, slot: ManifestTimeslot, done: (outcome: ControlOutcome) => void): HTMLDivElement {
  const path = `/api/v2/timeslots/${slot.ActivityID}/${date}/${slot.Time}`;
  const name = `${slot.Time} ${slot.ActivityName}`;
  const bar = document.createElement('div');
  bar.className = 'slot-controls no-print';

  const capacity = document.createElement('input');
  capacity.type = 'number';
  capacity.min = '1';
  capacity.max = '10000';
  capacity.value = String(slot.Capacity);
  capacity.className = 'slot-capacity-input';
  capacity.setAttribute('aria-label', `Capacity of ${name}`);
  const setCapacity = button('Set capacity', `Set the capacity of ${name}`, 'set-capacity');
  const openClose = slot.Closed
    ? button('Reopen', `Reopen ${name}`, 'reopen-timeslot')
    : button('Close…', `Close ${name}`, 'close-timeslot');
  const cancel = button('Cancel timeslot…', `Cancel ${name} and every booking on it`, 'cancel-timeslot');
  const controls = [setCapacity, openClose, cancel];

  setCapacity.addEventListener('click', () => {
    if (!capacity.reportValidity()) return;
    void run(
      controls,
      async () => {
        const changed = await apiPatch<OperatorTimeslot>(path, { Capacity: Number(capacity.value) });
        return `${name} now has a capacity of ${changed.Capacity}.`;
      },
      done,
    );
  });
  openClose.addEventListener('click', () => {
    if (slot.Closed) {
      void run(controls, async () => (await apiPatch<OperatorTimeslot>(path, { Closed: false }), `${name} is open for sale again.`), done);
      return;
    }
    const reason = window.prompt(`Close ${name}? Nothing more is sold on any channel; its bookings stay. Reason (optional):`);
    if (reason === null) return;
    const body = reason.trim() ? { Closed: true, Reason: reason.trim() } : { Closed: true };
    void run(controls, async () => (await apiPatch<OperatorTimeslot>(path, body), `${name} is closed.`), done);
  });
  cancel.addEventListener('click', () => {
    const reason = window.prompt(`Cancel ${name} and every booking on it? Each partner is told. Reason:`);
    if (reason === null) return;
    void run(
      controls,
      async () => {
        const answer = await apiPost<TimeslotCancellation>(`${path}/cancel`, { Reason: reason });
        const rest = answer.Timeslot.Cancellation?.Complete ? '' : '; the rest are being cancelled';
        return `${name} is cancelled: ${answer.CancelledBookings.length} booking(s) cancelled${rest}.`;
      },
      done,
    );
  });
  bar.append(capacity, setCapacity, openClose, cancel);
  return bar;
}
