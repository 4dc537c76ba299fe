import { HOLD_LIFE_MINUTES, HOLD_MINUTES } from '../../booking/constants';
import { DEFAULT_HOLD_CAPS } from '../../accounts/hold-caps';
import {
  availabilityBody,
  bookingPath,
  bookingsQuery,
  bookingUpdateBody,
  calendarBody,
  cancellationBody,
  confirmationBody,
  extensionBody,
  productPath,
  reservationBody,
} from '../../octo/schemas/requests';
import { subscriptionBody, subscriptionPath, subscriptionUpdateBody } from '../../octo/schemas/notifications';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** OCTo: the same catalogue, capacity and bookings in OCTo's shapes, under /octo. */
export const octoOperations = {
  'octo-get-supplier': {
    docs: {
      tag: 'OCTo',
      summary: 'The supplier',
      description: 'The operator the API key belongs to, and the OCTo base URL the request was sent to.',
      success: { status: 200, description: 'The supplier', data: 'OctoSupplier' },
    },
  },
  'octo-list-products': {
    docs: {
      tag: 'OCTo',
      summary: 'Products',
      description:
        "The shopfront's products that have start times or are day tickets, sorted by name, each with its one option (`DEFAULT`) and its units. With `Octo-Capabilities: octo/pricing`, prices in the product's currency (integer minor units).",
      success: { status: 200, description: 'The products', data: { listOf: 'OctoProduct' } },
    },
  },
  'octo-get-product': {
    request: { path: productPath },
    docs: {
      tag: 'OCTo',
      summary: 'One product',
      description: 'A product of the list by its ID (the ActivityID); any other ID is `INVALID_PRODUCT_ID`.',
      success: { status: 200, description: 'The product', data: 'OctoProduct' },
    },
  },
  'octo-availability-calendar': {
    request: { body: calendarBody },
    docs: {
      tag: 'OCTo',
      summary: 'Availability by day',
      description:
        'One item per day from `localDateStart` to `localDateEnd` (both included, at most 366 days) that has an availability open for sale; `vacancies` and `capacity` are those of its availability with the most places left. With `units`, a day is available only where that party fits.',
      success: { status: 200, description: 'The days', data: { listOf: 'OctoCalendarDay' } },
      requestExample: { productId: 's_kayak01', optionId: 'DEFAULT', localDateStart: '2026-07-01', localDateEnd: '2026-07-31' },
    },
  },
  'octo-check-availability': {
    request: { body: availabilityBody },
    docs: {
      tag: 'OCTo',
      summary: 'Availabilities',
      description:
        'The availabilities open for sale (sold-out ones included) of one day (`localDate`), of a range of days (`localDateStart` and `localDateEnd`, at most 366), or named by `availabilityIds`: exactly one of the three. An availability ID is its local start with its offset; a day ticket starts at 00:00 and is sold until closing.',
      success: { status: 200, description: 'The availabilities', data: { listOf: 'OctoAvailability' } },
      requestExample: { productId: 's_kayak01', optionId: 'DEFAULT', localDate: '2026-07-01' },
    },
  },
  'octo-reserve-booking': {
    request: { body: reservationBody },
    docs: {
      tag: 'OCTo',
      summary: 'Reserve',
      description: `Holds places for the unit items, in the same capacity transaction as a marketplace booking: the booking is \`ON_HOLD\` until \`utcExpiresAt\` (\`expirationMinutes\`, default ${HOLD_MINUTES.default}, at most ${HOLD_MINUTES.max}) and expires by itself if not confirmed. Send your own \`uuid\` to make retries safe: the same uuid with the same request answers the same booking and takes its places once; with another request it is \`INVALID_BOOKING_UUID\`. A full availability is \`UNPROCESSABLE_ENTITY\`, and so is a reservation past the places your key may hold at once, unconfirmed (by default ${DEFAULT_HOLD_CAPS.perTimeslot} on one availability and ${DEFAULT_HOLD_CAPS.total} in all): confirm, cancel or let reservations expire to make room.`,
      success: { status: 200, description: 'The reservation', data: 'OctoBooking' },
      requestExample: {
        uuid: '0b6a1f43-5d3e-4c1a-9a7e-2f1d4c8b9e10',
        productId: 's_kayak01',
        optionId: 'DEFAULT',
        availabilityId: '2026-07-01T10:00:00+01:00',
        unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
      },
    },
  },
  'octo-list-bookings': {
    request: { query: bookingsQuery },
    docs: {
      tag: 'OCTo',
      summary: "The key's bookings",
      description:
        'Bookings made through OCTo with this API key that match every filter given: `supplierReference`, `resellerReference`, `localDate` or `localDateStart` with `localDateEnd` (days of the availability), optionally `productId`. At least one of the first four is required.',
      success: { status: 200, description: 'The bookings, by availability', data: { listOf: 'OctoBooking' } },
    },
  },
  'octo-get-booking': {
    request: { path: bookingPath },
    docs: {
      tag: 'OCTo',
      summary: 'One booking',
      description: 'A booking this API key made through OCTo, by its uuid.',
      success: { status: 200, description: 'The booking', data: 'OctoBooking' },
    },
  },
  'octo-update-booking': {
    request: { path: bookingPath, body: bookingUpdateBody },
    docs: {
      tag: 'OCTo',
      summary: 'Change a booking',
      description:
        'Moves a held or confirmed booking to another availability, product or party of unit items (the places move in one transaction), or changes its contact, notes or `resellerReference`; a reservation also takes `expirationMinutes`. Possible until the availability closes (`cancellable`); the status stays.',
      success: { status: 200, description: 'The changed booking', data: 'OctoBooking' },
      requestExample: { availabilityId: '2026-07-02T10:00:00+01:00', notes: 'Two vegetarian lunches' },
    },
  },
  'octo-delete-booking': {
    request: { path: bookingPath },
    docs: {
      tag: 'OCTo',
      summary: 'Cancel a booking (older form)',
      description: 'As `POST /octo/bookings/{uuid}/cancel` without a reason.',
      success: { status: 200, description: 'The cancelled booking', data: 'OctoBooking' },
    },
  },
  'octo-confirm-booking': {
    request: { path: bookingPath, body: confirmationBody },
    docs: {
      tag: 'OCTo',
      summary: 'Confirm a reservation',
      description:
        'Confirms an `ON_HOLD` booking before `utcExpiresAt`, with the contact, your `resellerReference` and, optionally, other `unitItems` (places taken or given back in the same transaction). Confirming a confirmed booking again with nothing new answers it unchanged.',
      success: { status: 200, description: 'The confirmed booking', data: 'OctoBooking' },
      requestExample: {
        resellerReference: 'VOUCHER-8841',
        contact: { fullName: 'Ana Silva', firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.com' },
      },
    },
  },
  'octo-extend-booking': {
    request: { path: bookingPath, body: extensionBody },
    docs: {
      tag: 'OCTo',
      summary: 'Extend a reservation',
      description: `The reservation now expires \`expirationMinutes\` (default ${HOLD_MINUTES.default}, at most ${HOLD_MINUTES.max}) from now; only an unexpired \`ON_HOLD\` booking. A reservation lives at most ${HOLD_LIFE_MINUTES} minutes from when it was made: an extension past that is \`UNPROCESSABLE_ENTITY\`, saying how many minutes are left (confirm it instead).`,
      success: { status: 200, description: 'The reservation', data: 'OctoBooking' },
      requestExample: { expirationMinutes: 30 },
    },
  },
  'octo-cancel-booking': {
    request: { path: bookingPath, body: cancellationBody },
    docs: {
      tag: 'OCTo',
      summary: 'Cancel a booking',
      description:
        'Cancels a held or confirmed booking until its availability closes, giving its places back at once; `reason` is kept and shown to the operator. Cancelling a cancelled or expired booking answers it unchanged.',
      success: { status: 200, description: 'The cancelled booking', data: 'OctoBooking' },
      requestExample: { reason: 'Customer changed plans' },
    },
  },
  'octo-create-subscription': {
    request: { body: subscriptionBody },
    docs: {
      tag: 'OCTo',
      summary: 'Subscribe to notifications',
      description:
        "OCTo's notifications capability: notifications of `notificationTypes` (`PRODUCT_UPDATE`, `AVAILABILITY_UPDATE`, `BOOKING_UPDATE`) are POSTed to `url` (https to a public host, as a webhook endpoint), each with the `headers` you set (your own authentication: a notification carries no signature) and `webhook-id`, the same on every retry. A notification names what to fetch: `{ type, timestamp, data }` with `data` `{ productId }`, `{ productId, optionId, localDateStart, localDateEnd }` or `{ uuid }`. Availability changes are coalesced per availability (at most one every 5 seconds, the last always sent); you hear only of this key's own bookings. At most 10 subscriptions per key.",
      success: { status: 200, description: 'The subscription', data: 'OctoSubscription' },
      requestExample: {
        url: 'https://reseller.example.com/octo/notifications',
        notificationTypes: ['AVAILABILITY_UPDATE', 'BOOKING_UPDATE'],
        headers: { 'Api-Key': 'your-receiver-secret' },
      },
    },
  },
  'octo-list-subscriptions': {
    docs: {
      tag: 'OCTo',
      summary: 'Subscriptions',
      description: "This API key's notification subscriptions, oldest first.",
      success: { status: 200, description: 'The subscriptions', data: { listOf: 'OctoSubscription' } },
    },
  },
  'octo-get-subscription': {
    request: { path: subscriptionPath },
    docs: {
      tag: 'OCTo',
      summary: 'One subscription',
      description: 'A subscription of this API key by its `id`.',
      success: { status: 200, description: 'The subscription', data: 'OctoSubscription' },
    },
  },
  'octo-update-subscription': {
    request: { path: subscriptionPath, body: subscriptionUpdateBody },
    docs: {
      tag: 'OCTo',
      summary: 'Change a subscription',
      description: 'Replaces each of `url`, `notificationTypes` and `headers` that is given; the others stay.',
      success: { status: 200, description: 'The changed subscription', data: 'OctoSubscription' },
      requestExample: { notificationTypes: ['AVAILABILITY_UPDATE'] },
    },
  },
  'octo-delete-subscription': {
    request: { path: subscriptionPath },
    docs: {
      tag: 'OCTo',
      summary: 'Delete a subscription',
      description: 'Nothing more is sent to it; notifications still pending are given up. Answers the deleted subscription.',
      success: { status: 200, description: 'The deleted subscription', data: 'OctoSubscription' },
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
