import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { bookingReferencePath, bookingsQuery, confirmationBody, operatorCancellationBody, partnerBookingBody } from '../booking/schemas';
import { activityIdPath, availableDatesQuery, availableTimeslotsQuery, listProductsQuery, resolveProductQuery } from '../catalog/schemas';
import { usageBatchBody, usageEntryBody, usageEntryPath, usageSummaryQuery } from '../usage/schemas';
import { MAX_DIMENSION_COMBINATIONS, MAX_DIMENSIONS } from '../usage/model';
import { webhookEndpointBody } from '../webhooks/schemas';
import {
  availabilityBody,
  bookingPath,
  bookingsQuery as octoBookingsQuery,
  bookingUpdateBody,
  calendarBody,
  cancellationBody,
  confirmationBody as octoConfirmationBody,
  extensionBody,
  productPath,
  reservationBody,
} from '../octo/schemas';
import {
  booking,
  bookingRequest,
  keyOperator,
  confirmedHold,
  product,
  questions,
  usageBatchRequest,
  usageBatchResult,
  usageEntry,
  webhookEndpoint,
} from './examples';
import type { ResponseSchemaName } from './response-schemas';
import type { RouteId } from './routes';

/** A JSON Schema of an object, as the request schemas are. */
export type ObjectSchema = Extract<JSONSchema, { readonly type?: unknown }> & { readonly type: 'object' };

/** The schemas an operation's request is validated with; path faults are 400, query and body faults 422. */
export interface RequestSchemas {
  path?: ObjectSchema;
  query?: ObjectSchema;
  body?: ObjectSchema;
}

/** What the code cannot say about an operation, for the OpenAPI document: its words, examples and the errors its domain raises. */
export interface OperationDocs {
  tag: 'Catalogue' | 'Bookings' | 'Webhooks' | 'Usage' | 'Account' | 'OCTo';
  summary: string;
  description: string;
  success: {
    status: 200 | 201 | 204;
    description: string;
    /** The schema of `data` (of the whole body on OCTo routes): a named record, a list of one, or one of several; none for 204. */
    data?: ResponseSchemaName | { listOf: ResponseSchemaName } | { oneOf: ResponseSchemaName[] };
    example?: unknown;
    headers?: ('Location' | 'Idempotent-Replayed')[];
  };
  /** Statuses the domain raises beyond those the schemas, the body and the gateway imply. */
  errors?: number[];
  requestExample?: unknown;
  idempotencyKey?: boolean;
}

export interface Operation {
  /** What the request may carry: the function's validators are generated from these (scripts/validators.ts), and the OpenAPI document shows them. */
  request?: RequestSchemas;
  docs: OperationDocs;
}

/**
 * What each route of the route table (routes.ts) takes and answers, by its
 * ID: the schemas its request is validated with and the docs of its
 * operation. Build-time knowledge: the validators are generated from it, the
 * request types derived from it and the OpenAPI document built from it, so
 * none of it is loaded by a function. (Long because it is the one place each
 * operation is described.)
 */
const operationTable = {
  'list-products': {
    request: { query: listProductsQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'List the shopfront',
      description:
        "The operator's visible products in one response, sorted by name (at most 1,000; no pagination). `name` filters by a case-insensitive partial match.",
      success: { status: 200, description: 'The products', data: { listOf: 'Product' }, example: [product] },
    },
  },
  'resolve-product': {
    request: { query: resolveProductQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Resolve one product by ID or name',
      description: 'Give exactly one of `ID` (the numeric ProductID) and `Name` (exact, case-insensitive); both or neither is 400.',
      success: { status: 200, description: 'The product', data: 'Product', example: product },
      errors: [400, 404],
    },
  },
  'list-available-dates': {
    request: { path: activityIdPath, query: availableDatesQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Dates with room',
      description:
        'One item per date from `StartDate` to `EndDate` (both included, at most 92 days) that has a timeslot with room that has not started. Dates are local to the operator.',
      success: {
        status: 200,
        description: 'The dates',
        data: { listOf: 'AvailableDate' },
        example: [{ Date: '2026-07-01', Status: 'AVAILABLE', Vacancies: 20, Capacity: 24, AvailableTimeslots: 2 }],
      },
      errors: [404],
    },
  },
  'list-available-timeslots': {
    request: { path: activityIdPath, query: availableTimeslotsQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Timeslots with room on one date',
      description: "The date's timeslots that have room and have not started, in the operator's time zone.",
      success: {
        status: 200,
        description: 'The timeslots',
        data: { listOf: 'AvailableTimeslot' },
        example: [
          { Date: '2026-07-01', Time: '10:00', StartsAt: '2026-07-01T10:00:00+01:00', Status: 'LIMITED', Vacancies: 2, Capacity: 12 },
        ],
      },
      errors: [404],
    },
  },
  'get-marketplace-questions': {
    request: { path: activityIdPath },
    docs: {
      tag: 'Catalogue',
      summary: 'Waiver questions with their activity',
      description: 'The activity and the waiver questions a booking answers.',
      success: {
        status: 200,
        description: 'The activity and its questions',
        data: 'ActivityQuestions',
        example: { Activity: { ActivityID: 's_kayak01', ProductID: 1001, Name: 'Sunset Kayak Tour' }, Questions: questions },
      },
      errors: [404],
    },
  },
  'get-core-questions': {
    request: { path: activityIdPath },
    docs: {
      tag: 'Catalogue',
      summary: 'Waiver questions, bare list',
      description: "The activity's waiver questions as a bare list.",
      success: { status: 200, description: 'The questions', data: { listOf: 'Question' }, example: questions },
      errors: [404],
    },
  },
  'create-booking': {
    request: { body: partnerBookingBody },
    docs: {
      tag: 'Bookings',
      summary: 'Book a timeslot',
      description:
        'Takes the places in one transaction, or nothing: a full timeslot is 409 `insufficient-capacity`. Without `Answers` the booking is accepted with `WaiverStatus: PENDING`; with them, every required question must be answered. With `Hold` the places are only held: the booking is `ON_HOLD` until `HoldExpiresAt` (`ExpiresInMinutes` 1 to 60, default 15), `Customer` may wait for the confirmation, and a hold not confirmed in time expires by itself within a minute of `HoldExpiresAt`, giving its places back. An `Idempotency-Key` makes retries safe for 24 hours.',
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
  'put-webhook': {
    request: { body: webhookEndpointBody },
    docs: {
      tag: 'Webhooks',
      summary: "Register the key's webhook endpoint",
      description:
        'One endpoint per API key; registering again replaces it and issues a new signing secret. The answer shows the secret (`whsec_...`) this once. The URL must be https to a public host on port 443 (or a port the operator allows): only global unicast addresses are connected to (private, loopback, link-local, reserved addresses and IPv6 forms that embed an IPv4 address are refused), here and again on every delivery after DNS. Deliveries carry `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` as Standard Webhooks specifies; a 2xx within 10 seconds counts as delivered, anything else is retried with exponential backoff for 24 hours.',
      success: {
        status: 200,
        description: 'The endpoint, with its secret shown this once',
        data: 'IssuedWebhookEndpoint',
        example: { ...webhookEndpoint, Secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3jHnP8ZnCmk=' },
      },
      requestExample: { Url: webhookEndpoint.Url },
    },
  },
  'get-webhook': {
    docs: {
      tag: 'Webhooks',
      summary: "Read the key's webhook endpoint",
      description: 'The registered URL; never the secret. 404 when the key has none.',
      success: { status: 200, description: 'The endpoint', data: 'WebhookEndpoint', example: webhookEndpoint },
      errors: [404],
    },
  },
  'delete-webhook': {
    docs: {
      tag: 'Webhooks',
      summary: "Remove the key's webhook endpoint",
      description: 'Nothing more is sent to it; deliveries still pending are given up. 404 when the key has none.',
      success: { status: 204, description: 'Removed' },
      errors: [404],
    },
  },
  'get-operator': {
    docs: {
      tag: 'Account',
      summary: 'The calling key and its operator',
      description:
        "Who is calling: the operator the key belongs to (its name and IANA time zone, in which every booking date and time is expressed) and the key's own ID and scopes, for a client to set itself up (the dashboard's default time zone, the actions it offers).",
      success: { status: 200, description: 'The operator and the key', data: 'KeyOperator', example: keyOperator },
    },
  },
  'record-usage': {
    request: { body: usageEntryBody },
    docs: {
      tag: 'Usage',
      summary: 'Record a usage entry',
      description: `Adds \`Usage\` to a named meter. Built-in meter names are refused. \`Dimensions\` (optional: up to ${MAX_DIMENSIONS} keys, each with a string value) lets summaries group and filter the meter by them; a meter takes at most ${MAX_DIMENSION_COMBINATIONS} distinct combinations of dimensions, and an entry bringing one more is 422 naming the meter and the limit, with nothing recorded. An \`Idempotency-Key\` (kept 7 days) makes retries count once; the same key with other fields, Dimensions included, is 422. Entries are read through summaries, so the answer carries no Location.`,
      success: {
        status: 201,
        description: 'The recorded entry (or, for a repeated Idempotency-Key, the original entry again)',
        data: 'UsageEntry',
        example: { ...usageEntry, Dimensions: { Plan: 'pro', Region: 'eu-west' } },
        headers: ['Idempotent-Replayed'],
      },
      requestExample: {
        Meter: 'storage-gb',
        Usage: 0.25,
        ExtraInfo: '{"Bucket":"photos"}',
        OccurredAt: 1773146096,
        Dimensions: { Region: 'eu-west', Plan: 'pro' },
      },
      idempotencyKey: true,
    },
  },
  'record-usage-batch': {
    request: { body: usageBatchBody },
    docs: {
      tag: 'Usage',
      summary: 'Record up to 100 usage entries',
      description:
        "Each entry is as in `POST /api/v2/usage/meters`, plus an optional `Identifier` (1–255 visible ASCII characters): the entry's idempotency key, in the same space as the Idempotency-Key header and kept 7 days. A repeated Identifier, in this batch or a later one, counts once and answers the original entry with `Replayed: true`; the same Identifier with different fields is 422. Every entry is checked first: any invalid entry is 422 naming each one (`Entries[3].Usage`, all of them in `errors`) and nothing is written. A 5xx may leave part of the batch written: send it again, and entries with an Identifier count once.",
      success: {
        status: 201,
        description: 'Every entry in the order sent: recorded, or the original entry of a repeated Identifier',
        data: 'UsageBatchResult',
        example: usageBatchResult,
      },
      requestExample: usageBatchRequest,
    },
  },
  'void-usage-entry': {
    request: { path: usageEntryPath },
    docs: {
      tag: 'Usage',
      summary: 'Void a usage entry',
      description:
        "Takes one entry of the calling operator back out of every total, in one transaction, and marks it `VoidedAt`; the entry is kept. Voiding a voided entry answers it unchanged. Takes no body. An ID that is not one of the operator's entries is 404. An entry of a built-in meter (recorded from a platform event) is 403 `built-in-entry` with nothing changed: only the admin CLI voids those.",
      success: { status: 200, description: 'The voided entry', data: 'VoidedUsageEntry', example: { ...usageEntry, VoidedAt: 1773150000 } },
      errors: [403, 404],
    },
  },
  'get-usage-summary': {
    request: { query: usageSummaryQuery },
    docs: {
      tag: 'Usage',
      summary: 'Usage summary per meter',
      description:
        "Exact per-meter totals over whole days from `from` to `to` (both included, at most 366 days) in the zone `tz` (default UTC; zones whose midnight is not on a whole UTC hour are refused). `granularity` adds a series to every meter: `hour` (`Hours`, ranges of at most 7 days), `day` (`Days`) or `month` (`Months`, calendar months of the zone, the first and last cut to the range). `groupBy=Region` or `groupBy=Region,Plan` splits every meter into one item per group, its `Dimensions` giving the group's values (null for entries without the key); `filter[Plan]=pro` (up to 5, combined with AND, exact match) counts only matching entries, in the items and the Totals. Series split the same way. Voided entries are not counted. `meter=api-calls,storage-gb` (up to 10) reads and answers only those meters. The items read depend on the range and the meters, never on the number of entries; grouping or filtering reads the same items. A summary that would read more than 30,000 aggregates is 422: narrow the range, drop the series, or name the meters.",
      success: {
        status: 200,
        description: 'The summary',
        data: 'UsageSummary',
        example: {
          Period: { From: '2026-03-10', To: '2026-03-11', FromTimestamp: 1773100800, ToTimestamp: 1773273599, TimeZone: 'UTC' },
          Totals: { Usage: 7.3, Events: 3 },
          Meters: [
            { Meter: 'big', TotalUsage: 7, EventCount: 1 },
            { Meter: 'pair', TotalUsage: 0.3, EventCount: 2 },
          ],
        },
      },
    },
  },
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
      description:
        'Holds places for the unit items, in the same capacity transaction as a marketplace booking: the booking is `ON_HOLD` until `utcExpiresAt` (`expirationMinutes`, default 15, at most 60) and expires by itself if not confirmed. Send your own `uuid` to make retries safe: the same uuid with the same request answers the same booking and takes its places once; with another request it is `INVALID_BOOKING_UUID`. A full availability is `UNPROCESSABLE_ENTITY`.',
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
    request: { query: octoBookingsQuery },
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
    request: { path: bookingPath, body: octoConfirmationBody },
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
      description:
        'The reservation now expires `expirationMinutes` (default 15, at most 60) from now; only an unexpired `ON_HOLD` booking.',
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
} as const satisfies Record<RouteId, Operation>;

export const operations: Readonly<Record<RouteId, Operation>> = operationTable;

type Parsed<Entry, Part extends keyof RequestSchemas> = Entry extends { request: { [P in Part]: infer S extends JSONSchema } }
  ? FromSchema<S>
  : Record<string, never>;

/** What a route's handler receives once its request has been validated: the types derived from the route's own schemas. */
export interface RequestOf<Id extends RouteId> {
  path: Parsed<(typeof operationTable)[Id], 'path'>;
  query: Parsed<(typeof operationTable)[Id], 'query'>;
  body: Parsed<(typeof operationTable)[Id], 'body'>;
}
