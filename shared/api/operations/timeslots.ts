import { MAX_ADDED_TIMESLOTS } from '../../booking/timeslot-schemas';
import {
  addTimeslotsBody,
  cancelTimeslotBody,
  dateChangeBody,
  timeslotActivityPath,
  timeslotChangeBody,
  timeslotDatePath,
  timeslotDayQuery,
  timeslotPath,
} from '../../booking/timeslot-schemas';
import { operatorTimeslot } from '../examples';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

const reopened = {
  ActivityID: operatorTimeslot.ActivityID,
  Date: operatorTimeslot.Date,
  Time: operatorTimeslot.Time,
  StartsAt: operatorTimeslot.StartsAt,
  Capacity: 6,
  Booked: 4,
  Held: 1,
  Vacancies: 1,
  Status: 'LIMITED',
  Closed: false,
  ReopenedBy: 'key_Xq3vN8aPz2Lm',
  ReopenedAt: '2026-07-01T15:20:00.000Z',
};
const added = {
  ActivityID: operatorTimeslot.ActivityID,
  Date: operatorTimeslot.Date,
  Time: '19:00',
  StartsAt: '2026-07-01T19:00:00+01:00',
  Capacity: 8,
  Booked: 0,
  Held: 0,
  Vacancies: 8,
  Status: 'AVAILABLE',
  Closed: false,
  AddedBy: 'key_Xq3vN8aPz2Lm',
  AddedAt: '2026-06-30T18:40:00.000Z',
};
const cancelled = {
  ...operatorTimeslot,
  Booked: 0,
  Held: 0,
  Vacancies: 6,
  Cancellation: {
    Reason: 'Storm warning: no boats go out',
    By: 'key_Xq3vN8aPz2Lm',
    StartedAt: '2026-07-01T11:02:10.300Z',
    Complete: true,
    FinishedAt: '2026-07-01T11:02:10.912Z',
  },
};

/** The operator's timeslots: its view of a day and its changes (scope `availability:write`). */
export const timeslotOperations = {
  'get-timeslots': {
    request: { path: timeslotActivityPath, query: timeslotDayQuery },
    docs: {
      tag: 'Timeslots',
      summary: "The operator's timeslots of one day",
      description:
        "Every timeslot of one of the operator's activities (hidden ones too) on `date`, in time order: its capacity, the places of confirmed bookings (`Booked`) and of holds (`Held`), what is left, its status as every channel shows it (`CLOSED` while closed), and who closed it, reopened it, changed its capacity or added it, and when. `Held` is read from the manifest's index, which follows a booking within a second. The scope that changes availability reads it: a tool that changes a timeslot reads it first with the same key.",
      success: { status: 200, description: "The day's timeslots", data: { listOf: 'OperatorTimeslot' }, example: [operatorTimeslot] },
      errors: [404],
    },
  },
  'change-timeslot': {
    request: { path: timeslotPath, body: timeslotChangeBody },
    docs: {
      tag: 'Timeslots',
      summary: 'Change the capacity of a timeslot, close it or reopen it',
      description:
        "One conditional write of the timeslot, so no booking on any channel can race it into an overbooking. `Capacity` (1 to 10,000) never goes below the places already held and booked: that is 409 `capacity-below-taken` naming how many are taken (`taken`), and nothing changes. `Closed: true` stops every sale at once on every channel (the marketplace leaves the timeslot out like a full one, OCTo shows it `CLOSED`, a booking or move onto it is 409 `insufficient-capacity`), keeps its bookings, and records `Reason` (optional), who and when; `Closed: false` reopens it, except while its bookings are being cancelled (409 `cancellation-in-progress`). Give `Capacity`, `Closed` or both. Another operator's timeslot, or one that does not exist, is 404. Sending the same change again is safe.",
      success: { status: 200, description: 'The timeslot as changed', data: 'OperatorTimeslot', example: operatorTimeslot },
      errors: [404, 409],
      requestExample: { Closed: true, Reason: 'Storm warning: no boats go out' },
    },
  },
  'change-timeslot-date': {
    request: { path: timeslotDatePath, body: dateChangeBody },
    docs: {
      tag: 'Timeslots',
      summary: 'Close or reopen every timeslot of a date',
      description:
        'Every timeslot the activity has on `Date` is closed (with the optional `Reason`) or reopened, each by its own conditional write; sending the request again finishes what a failure left. A reopening is refused (409 `cancellation-in-progress`, nothing written) while one of them is being cancelled. A date without timeslots is 404.',
      success: { status: 200, description: "The date's timeslots as changed", data: { listOf: 'OperatorTimeslot' }, example: [reopened] },
      errors: [404, 409],
      requestExample: { Closed: true, Reason: 'Private group' },
    },
  },
  'add-timeslots': {
    request: { path: timeslotActivityPath, body: addTimeslotsBody },
    docs: {
      tag: 'Timeslots',
      summary: 'Add one-off timeslots',
      description: `Up to ${MAX_ADDED_TIMESLOTS} timeslots, as a catalogue file's \`Timeslots\` give them (\`Time\` for start-time products, \`OpeningHours\` for day tickets), all or none in one transaction: one the activity already has is 409 \`timeslot-exists\` naming it, and nothing is added (so a retry of an addition that was made adds nothing twice); a time the clocks skip that day is 422 naming its \`Time\`. A new start time joins the product's start times (OCTo's \`availabilityLocalStartTimes\`).`,
      success: { status: 201, description: 'The timeslots added', data: { listOf: 'OperatorTimeslot' }, example: [added] },
      errors: [404, 409],
      requestExample: { Timeslots: [{ Date: '2026-07-01', Time: '19:00', Capacity: 8 }] },
    },
  },
  'cancel-timeslot': {
    request: { path: timeslotPath, body: cancelTimeslotBody },
    docs: {
      tag: 'Timeslots',
      summary: 'Cancel a timeslot with every booking on it',
      description:
        "Weather, a breakdown: the timeslot closes (one conditional write: nothing more is sold on it from that instant) and every held and confirmed booking on it is cancelled with `Reason`, each by the operator's one cancellation transaction: its places go back and the partner who sold it is sent `booking.cancelled`. The answer lists the bookings cancelled. A timeslot with more bookings than one request cancels in its time (its function's 10 seconds, less 3 to answer) is answered with `Timeslot.Cancellation.Complete: false`: the service finishes it within two minutes by itself, or at once when the same request is sent again, and the complete answer then lists every booking. Safe to retry: while the timeslot stays closed, the same request is answered with the same cancellation; with an `Idempotency-Key` the complete answer is given again for 24 hours even after a reopening. Reopen the timeslot with PATCH once the cancellation is complete.",
      success: {
        status: 200,
        description: 'The timeslot, closed, and the bookings cancelled',
        data: 'TimeslotCancellation',
        example: { Timeslot: cancelled, CancelledBookings: ['K5DDMJMXFQ', 'R7TWQ2NB9C'] },
        headers: ['Idempotent-Replayed'],
      },
      errors: [404],
      requestExample: { Reason: 'Storm warning: no boats go out' },
      idempotencyKey: true,
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
