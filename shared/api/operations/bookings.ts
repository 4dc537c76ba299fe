import { HOLD_LIFE_MINUTES, HOLD_MINUTES } from '../../booking/constants';
import { DEFAULT_HOLD_CAPS } from '../../accounts/hold-caps';
import { bookingReferencePath, bookingsQuery, confirmationBody, operatorCancellationBody, partnerBookingBody } from '../../booking/schemas';
import { booking, bookingRequest, confirmedHold, erasedBooking } from '../examples';
import { erasureBody, erasureQuery } from '../../booking/erasure-schemas';
import { DEFAULT_RETENTION_DAYS } from '../../booking/retention';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** Bookings: a partner's bookings and holds, the operator's list, manifest and cancellations. */
export const bookingOperations = {
  'create-booking': {
    request: { body: partnerBookingBody },
    docs: {
      tag: 'Bookings',
      summary: 'Book a timeslot',
      description: `Takes the places in one transaction, or nothing: a full timeslot is 409 \`insufficient-capacity\`. Without \`Answers\` the booking is accepted with \`WaiverStatus: PENDING\`; with them, every required question must be answered. With \`Hold\` the places are only held: the booking is \`ON_HOLD\` until \`HoldExpiresAt\` (\`ExpiresInMinutes\` ${HOLD_MINUTES.min} to ${HOLD_MINUTES.max}, default ${HOLD_MINUTES.default}), \`Customer\` may wait for the confirmation, and a hold not confirmed in time expires by itself within a minute of \`HoldExpiresAt\`, giving its places back. A key holds at most so many places at once, unconfirmed (by default ${DEFAULT_HOLD_CAPS.perTimeslot} on one timeslot and ${DEFAULT_HOLD_CAPS.total} in all; its operator may give it others): a hold past either is 409 \`hold-cap-reached\`, and confirming, cancelling or letting holds expire makes room. A hold lives at most ${HOLD_LIFE_MINUTES} minutes from when it was made. An \`Idempotency-Key\` makes retries safe for 24 hours.`,
      success: {
        status: 201,
        description: 'The booking (or, for a repeated Idempotency-Key, the original booking again)',
        data: 'Booking',
        example: booking,
        headers: ['Location', 'Idempotent-Replayed'],
      },
      errors: [404, 409],
      requestExample: bookingRequest,
      idempotencyKey: true,
    },
  },
  'get-booking': {
    request: { path: bookingReferencePath },
    docs: {
      tag: 'Bookings',
      summary: "Read back one of the partner's bookings",
      description: 'Only bookings made with the calling API key; any other booking is 404. The reference is accepted in lower case too.',
      success: { status: 200, description: 'The booking', data: 'Booking', example: booking },
      errors: [404],
    },
  },
  'cancel-booking': {
    request: { path: bookingReferencePath },
    docs: {
      tag: 'Bookings',
      summary: "Cancel one of the partner's bookings",
      description:
        'Gives the places back at once, of a hold or of a confirmed booking. Takes no body. Cancelling a cancelled booking (or an expired hold) answers it unchanged; a booking whose timeslot has started is 409 `timeslot-started`.',
      success: {
        status: 200,
        description: 'The cancelled booking',
        data: 'Booking',
        example: { ...booking, Status: 'CANCELLED', CancelledAt: '2026-06-22T16:40:11.508Z', CancelledBy: 'partner' },
      },
      errors: [404, 409],
    },
  },
  'confirm-booking': {
    request: { path: bookingReferencePath, body: confirmationBody },
    docs: {
      tag: 'Bookings',
      summary: 'Confirm a hold',
      description:
        'Turns an `ON_HOLD` booking into `CONFIRMED` in one conditional write, which fails once `HoldExpiresAt` has passed (409 `hold-expired`). The body may complete the hold (`Customer`, `Answers`, `PaymentReference`, each replacing what the hold had); send `{}` when there is nothing to add. A hold without a Customer needs one here. Confirming a confirmed booking answers it unchanged; a cancelled one is 409 `booking-cancelled`.',
      success: { status: 200, description: 'The confirmed booking', data: 'Booking', example: confirmedHold },
      errors: [404, 409],
      requestExample: { PaymentReference: 'pay_8841' },
    },
  },
  'list-bookings': {
    request: { query: bookingsQuery },
    docs: {
      tag: 'Bookings',
      summary: "The operator's bookings of every channel, or the manifest of a day",
      description:
        "Two questions, one per request (combining their parameters is 422). **List**: bookings made (CreatedAt) from `from` to `to`, days in the operator's time zone, newest first, in pages of `limit` (default 50, at most 200); a filtered page may be shorter than `limit`; the list ends when NextCursor is null. **Manifest**: `date` (a timeslot day in the operator's time zone) and optionally `activity` give the held and confirmed bookings of that day, grouped by timeslot in order of start time (then activity name), each timeslot with its participant count and its bookings by customer name.",
      success: {
        status: 200,
        description: 'One page of bookings (list), or the day by timeslot (manifest)',
        data: { oneOf: ['BookingList', 'Manifest'] },
        example: { Bookings: [booking], NextCursor: 'MjAyNi0wNi0yMFQwOToxNTowMi4xMjNaI0s1RERNSk1YRlE' },
      },
    },
  },
  'cancel-operator-booking': {
    request: { path: bookingReferencePath, body: operatorCancellationBody },
    docs: {
      tag: 'Bookings',
      summary: 'Cancel any booking (operator)',
      description:
        "The operator cancels a booking of any channel, held or confirmed, whenever it must, with a `Reason`; the places are given back in the same transaction as a partner's cancel. The partner who sold an `ota` booking is sent `booking.cancelled`. Cancelling a cancelled booking (or an expired hold) answers it unchanged.",
      success: {
        status: 200,
        description: 'The cancelled booking',
        data: 'Booking',
        example: {
          ...booking,
          Status: 'CANCELLED',
          CancelledAt: '2026-06-30T18:02:10.300Z',
          CancelledBy: 'operator',
          CancellationReason: 'Storm warning: no boats go out',
        },
      },
      errors: [404],
      requestExample: { Reason: 'Storm warning: no boats go out' },
    },
  },
  'erase-personal-data': {
    request: { query: erasureQuery, body: erasureBody },
    docs: {
      tag: 'Bookings',
      summary: "Erase a customer's personal data (operator)",
      description: `Erases the personal data of one booking (\`BookingReference\`) or of every booking of one customer (\`Email\`, in the body so that it is never in a URL or an access log): its Customer, waiver Answers, and an OCTo booking's contact and notes, in the booking and in every copy of it (the stored answer of its Idempotency-Key, its webhook deliveries, the indexes that list it). What the accounts need stays: reference, product, date and time, party, units, price, payment reference, status and their instants; the booking stays listed, on its manifest and cancellable, with \`ErasedAt\`. By email, \`limit\` bookings are erased a request and \`More\` says whether to send it again. Erasing again changes nothing; another operator's booking is 404. Personal data is also erased ${DEFAULT_RETENTION_DAYS} days after the activity by default (docs/operating.md).`,
      success: {
        status: 200,
        description: 'The bookings erased',
        data: 'Erasure',
        example: { Bookings: [erasedBooking], More: false },
      },
      errors: [404],
      requestExample: { Email: 'ana@example.com' },
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
