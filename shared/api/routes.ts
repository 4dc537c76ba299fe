import path from 'node:path';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Scope } from '../accounts/scopes';
import { bookingReferencePath, bookingsQuery, confirmationBody, operatorCancellationBody, partnerBookingBody } from '../booking/schemas';
import { activityIdPath, availableDatesQuery, availableTimeslotsQuery, listProductsQuery, resolveProductQuery } from '../catalog/schemas';
import { usageBatchBody, usageEntryBody, usageEntryPath, usageSummaryQuery } from '../usage/schemas';
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
  confirmedHold,
  product,
  questions,
  usageBatchRequest,
  usageBatchResult,
  usageEntry,
  webhookEndpoint,
} from './examples';
import type { ResponseSchemaName } from './response-schemas';

/** A JSON Schema of an object, as the route table's request schemas are. */
export type ObjectSchema = Extract<JSONSchema, { readonly type?: unknown }> & { readonly type: 'object' };

/** The schemas a route's request is validated with; path faults are 400, query and body faults 422. */
export interface RequestSchemas {
  path?: ObjectSchema;
  query?: ObjectSchema;
  body?: ObjectSchema;
}

/** What the code cannot say about an operation, for the OpenAPI document: its words, examples and the errors its domain raises. */
export interface OperationDocs {
  tag: 'Catalogue' | 'Bookings' | 'Webhooks' | 'Usage' | 'OCTo';
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

/**
 * The route table: one row per endpoint. The CDK stack makes one function and
 * one API method per row; the local host routes requests by the same rows;
 * the authorizer grants a key the rows whose scope it holds; the OpenAPI
 * document is built from them. (The file is long because it is the one
 * table: each row carries its operation's docs.)
 */
export interface Route {
  /** Function name stem, unique. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway resource path; `{Name}` segments are path parameters. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  entry: string;
  scope: Scope;
  /** What the request may carry: the handler's validators are generated from these (scripts/validators.ts), and the OpenAPI document shows them. */
  request?: RequestSchemas;
  /** The table access the function's role is granted. */
  tableAccess: 'read' | 'readWrite';
  /** The function queues webhook deliveries (its role may send to the delivery queue). */
  sendsWebhooks?: true;
  /** OCTo's face (bare OCTo bodies, OCTo's error body); absent: the marketplace's (`{ data }`, RFC 7807 problems). */
  face?: 'octo';
  docs: OperationDocs;
}

const routeTable = [
  {
    id: 'list-products',
    method: 'GET',
    path: '/api/v2/ota/marketplace/products',
    entry: 'functions/ota/list-products.ts',
    request: { query: listProductsQuery },
    scope: 'ota',
    tableAccess: 'read',
    docs: {
      tag: 'Catalogue',
      summary: 'List the shopfront',
      description:
        "The operator's visible products in one response, sorted by name (at most 1,000; no pagination). `name` filters by a case-insensitive partial match.",
      success: { status: 200, description: 'The products', data: { listOf: 'Product' }, example: [product] },
    },
  },
  {
    id: 'resolve-product',
    method: 'GET',
    path: '/api/v2/ota/marketplace/resolve-product',
    entry: 'functions/ota/resolve-product.ts',
    request: { query: resolveProductQuery },
    scope: 'ota',
    tableAccess: 'read',
    docs: {
      tag: 'Catalogue',
      summary: 'Resolve one product by ID or name',
      description: 'Give exactly one of `ID` (the numeric ProductID) and `Name` (exact, case-insensitive); both or neither is 400.',
      success: { status: 200, description: 'The product', data: 'Product', example: product },
      errors: [400, 404],
    },
  },
  {
    id: 'list-available-dates',
    method: 'GET',
    path: '/api/v2/ota/marketplace/availability/{ActivityID}/dates',
    entry: 'functions/ota/list-available-dates.ts',
    request: { path: activityIdPath, query: availableDatesQuery },
    scope: 'ota',
    tableAccess: 'read',
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
  {
    id: 'list-available-timeslots',
    method: 'GET',
    path: '/api/v2/ota/marketplace/availability/{ActivityID}/timeslots',
    entry: 'functions/ota/list-available-timeslots.ts',
    request: { path: activityIdPath, query: availableTimeslotsQuery },
    scope: 'ota',
    tableAccess: 'read',
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
  {
    id: 'get-marketplace-questions',
    method: 'GET',
    path: '/api/v2/ota/marketplace/questions/{ActivityID}',
    entry: 'functions/ota/get-marketplace-questions.ts',
    request: { path: activityIdPath },
    scope: 'ota',
    tableAccess: 'read',
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
  {
    id: 'get-core-questions',
    method: 'GET',
    path: '/api/v2/ota/core/questions/{ActivityID}',
    entry: 'functions/ota/get-core-questions.ts',
    request: { path: activityIdPath },
    scope: 'ota',
    tableAccess: 'read',
    docs: {
      tag: 'Catalogue',
      summary: 'Waiver questions, bare list',
      description: "The activity's waiver questions as a bare list.",
      success: { status: 200, description: 'The questions', data: { listOf: 'Question' }, example: questions },
      errors: [404],
    },
  },
  {
    id: 'create-booking',
    method: 'POST',
    path: '/api/v2/ota/marketplace/booking',
    entry: 'functions/ota/create-booking.ts',
    request: { body: partnerBookingBody },
    scope: 'ota',
    tableAccess: 'readWrite',
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
  {
    id: 'get-booking',
    method: 'GET',
    path: '/api/v2/ota/marketplace/booking/{BookingReference}',
    entry: 'functions/ota/get-booking.ts',
    request: { path: bookingReferencePath },
    scope: 'ota',
    tableAccess: 'read',
    docs: {
      tag: 'Bookings',
      summary: "Read back one of the partner's bookings",
      description: 'Only bookings made with the calling API key; any other booking is 404. The reference is accepted in lower case too.',
      success: { status: 200, description: 'The booking', data: 'Booking', example: booking },
      errors: [404],
    },
  },
  {
    id: 'cancel-booking',
    method: 'POST',
    path: '/api/v2/ota/marketplace/booking/{BookingReference}/cancel',
    entry: 'functions/ota/cancel-booking.ts',
    request: { path: bookingReferencePath },
    scope: 'ota',
    tableAccess: 'readWrite',
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
  {
    id: 'confirm-booking',
    method: 'POST',
    path: '/api/v2/ota/marketplace/booking/{BookingReference}/confirm',
    entry: 'functions/ota/confirm-booking.ts',
    request: { path: bookingReferencePath, body: confirmationBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    sendsWebhooks: true,
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
  {
    id: 'list-bookings',
    method: 'GET',
    path: '/api/v2/bookings',
    entry: 'functions/bookings/list-bookings.ts',
    request: { query: bookingsQuery },
    scope: 'bookings:read',
    tableAccess: 'read',
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
  {
    id: 'cancel-operator-booking',
    method: 'POST',
    path: '/api/v2/bookings/{BookingReference}/cancel',
    entry: 'functions/bookings/cancel-operator-booking.ts',
    request: { path: bookingReferencePath, body: operatorCancellationBody },
    scope: 'bookings:write',
    tableAccess: 'readWrite',
    sendsWebhooks: true,
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
  {
    id: 'put-webhook',
    method: 'PUT',
    path: '/api/v2/ota/webhook',
    entry: 'functions/ota/put-webhook.ts',
    request: { body: webhookEndpointBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    docs: {
      tag: 'Webhooks',
      summary: "Register the key's webhook endpoint",
      description:
        'One endpoint per API key; registering again replaces it and issues a new signing secret. The answer shows the secret (`whsec_...`) this once. The URL must be https to a public host: private, loopback, link-local and reserved addresses are refused, here and again on every delivery after DNS. Deliveries carry `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` as Standard Webhooks specifies; a 2xx within 10 seconds counts as delivered, anything else is retried with exponential backoff for 24 hours.',
      success: {
        status: 200,
        description: 'The endpoint, with its secret shown this once',
        data: 'IssuedWebhookEndpoint',
        example: { ...webhookEndpoint, Secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3jHnP8ZnCmk=' },
      },
      requestExample: { Url: webhookEndpoint.Url },
    },
  },
  {
    id: 'get-webhook',
    method: 'GET',
    path: '/api/v2/ota/webhook',
    entry: 'functions/ota/get-webhook.ts',
    scope: 'ota',
    tableAccess: 'read',
    docs: {
      tag: 'Webhooks',
      summary: "Read the key's webhook endpoint",
      description: 'The registered URL; never the secret. 404 when the key has none.',
      success: { status: 200, description: 'The endpoint', data: 'WebhookEndpoint', example: webhookEndpoint },
      errors: [404],
    },
  },
  {
    id: 'delete-webhook',
    method: 'DELETE',
    path: '/api/v2/ota/webhook',
    entry: 'functions/ota/delete-webhook.ts',
    scope: 'ota',
    tableAccess: 'readWrite',
    docs: {
      tag: 'Webhooks',
      summary: "Remove the key's webhook endpoint",
      description: 'Nothing more is sent to it; deliveries still pending are given up. 404 when the key has none.',
      success: { status: 204, description: 'Removed' },
      errors: [404],
    },
  },
  {
    id: 'record-usage',
    method: 'POST',
    path: '/api/v2/usage/meters',
    entry: 'functions/usage/record-usage.ts',
    request: { body: usageEntryBody },
    scope: 'usage:write',
    tableAccess: 'readWrite',
    docs: {
      tag: 'Usage',
      summary: 'Record a usage entry',
      description:
        'Adds `Usage` to a named meter. Built-in meter names are refused. An `Idempotency-Key` (kept 7 days) makes retries count once. Entries are read through summaries, so the answer carries no Location.',
      success: {
        status: 201,
        description: 'The recorded entry (or, for a repeated Idempotency-Key, the original entry again)',
        data: 'UsageEntry',
        example: usageEntry,
        headers: ['Idempotent-Replayed'],
      },
      requestExample: { Meter: 'storage-gb', Usage: 0.25, ExtraInfo: '{"Bucket":"photos"}', OccurredAt: 1773146096 },
      idempotencyKey: true,
    },
  },
  {
    id: 'record-usage-batch',
    method: 'POST',
    path: '/api/v2/usage/meters/batch',
    entry: 'functions/usage/record-usage-batch.ts',
    request: { body: usageBatchBody },
    scope: 'usage:write',
    tableAccess: 'readWrite',
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
  {
    id: 'void-usage-entry',
    method: 'POST',
    path: '/api/v2/usage/meters/{ID}/void',
    entry: 'functions/usage/void-usage-entry.ts',
    request: { path: usageEntryPath },
    scope: 'usage:write',
    tableAccess: 'readWrite',
    docs: {
      tag: 'Usage',
      summary: 'Void a usage entry',
      description:
        "Takes one entry of the calling operator (built-in ones included) back out of every total, in one transaction, and marks it `VoidedAt`; the entry is kept. Voiding a voided entry answers it unchanged. Takes no body. An ID that is not one of the operator's entries is 404.",
      success: { status: 200, description: 'The voided entry', data: 'VoidedUsageEntry', example: { ...usageEntry, VoidedAt: 1773150000 } },
      errors: [404],
    },
  },
  {
    id: 'get-usage-summary',
    method: 'GET',
    path: '/api/v2/usage/meters',
    entry: 'functions/usage/get-usage-summary.ts',
    request: { query: usageSummaryQuery },
    scope: 'usage:read',
    tableAccess: 'read',
    docs: {
      tag: 'Usage',
      summary: 'Usage summary per meter',
      description:
        'Exact per-meter totals over whole days from `from` to `to` (both included, at most 366 days) in the zone `tz` (default UTC; zones whose midnight is not on a whole UTC hour are refused). `granularity` adds a series to every meter: `hour` (`Hours`, ranges of at most 7 days), `day` (`Days`) or `month` (`Months`, calendar months of the zone, the first and last cut to the range). Voided entries are not counted. The items read depend on the range and the meters, never on the number of entries.',
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

  {
    id: 'octo-get-supplier',
    method: 'GET',
    path: '/octo/supplier',
    entry: 'functions/octo/get-supplier.ts',
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'The supplier',
      description: 'The operator the API key belongs to, and the OCTo base URL the request was sent to.',
      success: { status: 200, description: 'The supplier', data: 'OctoSupplier' },
    },
  },
  {
    id: 'octo-list-products',
    method: 'GET',
    path: '/octo/products',
    entry: 'functions/octo/list-products.ts',
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Products',
      description:
        "The shopfront's products that have start times or are day tickets, sorted by name, each with its one option (`DEFAULT`) and its units. With `Octo-Capabilities: octo/pricing`, prices in the product's currency (integer minor units).",
      success: { status: 200, description: 'The products', data: { listOf: 'OctoProduct' } },
    },
  },
  {
    id: 'octo-get-product',
    method: 'GET',
    path: '/octo/products/{productId}',
    entry: 'functions/octo/get-product.ts',
    request: { path: productPath },
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'One product',
      description: 'A product of the list by its ID (the ActivityID); any other ID is `INVALID_PRODUCT_ID`.',
      success: { status: 200, description: 'The product', data: 'OctoProduct' },
    },
  },
  {
    id: 'octo-availability-calendar',
    method: 'POST',
    path: '/octo/availability/calendar',
    entry: 'functions/octo/availability-calendar.ts',
    request: { body: calendarBody },
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Availability by day',
      description:
        'One item per day from `localDateStart` to `localDateEnd` (both included, at most 366 days) that has an availability open for sale; `vacancies` and `capacity` are those of its availability with the most places left. With `units`, a day is available only where that party fits.',
      success: { status: 200, description: 'The days', data: { listOf: 'OctoCalendarDay' } },
      requestExample: { productId: 's_kayak01', optionId: 'DEFAULT', localDateStart: '2026-07-01', localDateEnd: '2026-07-31' },
    },
  },
  {
    id: 'octo-check-availability',
    method: 'POST',
    path: '/octo/availability',
    entry: 'functions/octo/check-availability.ts',
    request: { body: availabilityBody },
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Availabilities',
      description:
        'The availabilities open for sale (sold-out ones included) of one day (`localDate`), of a range of days (`localDateStart` and `localDateEnd`, at most 366), or named by `availabilityIds`: exactly one of the three. An availability ID is its local start with its offset; a day ticket starts at 00:00 and is sold until closing.',
      success: { status: 200, description: 'The availabilities', data: { listOf: 'OctoAvailability' } },
      requestExample: { productId: 's_kayak01', optionId: 'DEFAULT', localDate: '2026-07-01' },
    },
  },
  {
    id: 'octo-reserve-booking',
    method: 'POST',
    path: '/octo/bookings',
    entry: 'functions/octo/reserve-booking.ts',
    request: { body: reservationBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    face: 'octo',
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
  {
    id: 'octo-list-bookings',
    method: 'GET',
    path: '/octo/bookings',
    entry: 'functions/octo/list-bookings.ts',
    request: { query: octoBookingsQuery },
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: "The key's bookings",
      description:
        'Bookings made through OCTo with this API key that match every filter given: `supplierReference`, `resellerReference`, `localDate` or `localDateStart` with `localDateEnd` (days of the availability), optionally `productId`. At least one of the first four is required.',
      success: { status: 200, description: 'The bookings, by availability', data: { listOf: 'OctoBooking' } },
    },
  },
  {
    id: 'octo-get-booking',
    method: 'GET',
    path: '/octo/bookings/{uuid}',
    entry: 'functions/octo/get-booking.ts',
    request: { path: bookingPath },
    scope: 'ota',
    tableAccess: 'read',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'One booking',
      description: 'A booking this API key made through OCTo, by its uuid.',
      success: { status: 200, description: 'The booking', data: 'OctoBooking' },
    },
  },
  {
    id: 'octo-update-booking',
    method: 'PATCH',
    path: '/octo/bookings/{uuid}',
    entry: 'functions/octo/update-booking.ts',
    request: { path: bookingPath, body: bookingUpdateBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Change a booking',
      description:
        'Moves a held or confirmed booking to another availability, product or party of unit items (the places move in one transaction), or changes its contact, notes or `resellerReference`; a reservation also takes `expirationMinutes`. Possible until the availability closes (`cancellable`); the status stays.',
      success: { status: 200, description: 'The changed booking', data: 'OctoBooking' },
      requestExample: { availabilityId: '2026-07-02T10:00:00+01:00', notes: 'Two vegetarian lunches' },
    },
  },
  {
    id: 'octo-delete-booking',
    method: 'DELETE',
    path: '/octo/bookings/{uuid}',
    entry: 'functions/octo/delete-booking.ts',
    request: { path: bookingPath },
    scope: 'ota',
    tableAccess: 'readWrite',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Cancel a booking (older form)',
      description: 'As `POST /octo/bookings/{uuid}/cancel` without a reason.',
      success: { status: 200, description: 'The cancelled booking', data: 'OctoBooking' },
    },
  },
  {
    id: 'octo-confirm-booking',
    method: 'POST',
    path: '/octo/bookings/{uuid}/confirm',
    entry: 'functions/octo/confirm-booking.ts',
    request: { path: bookingPath, body: octoConfirmationBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    sendsWebhooks: true,
    face: 'octo',
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
  {
    id: 'octo-extend-booking',
    method: 'POST',
    path: '/octo/bookings/{uuid}/extend',
    entry: 'functions/octo/extend-booking.ts',
    request: { path: bookingPath, body: extensionBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Extend a reservation',
      description:
        'The reservation now expires `expirationMinutes` (default 15, at most 60) from now; only an unexpired `ON_HOLD` booking.',
      success: { status: 200, description: 'The reservation', data: 'OctoBooking' },
      requestExample: { expirationMinutes: 30 },
    },
  },
  {
    id: 'octo-cancel-booking',
    method: 'POST',
    path: '/octo/bookings/{uuid}/cancel',
    entry: 'functions/octo/cancel-booking.ts',
    request: { path: bookingPath, body: cancellationBody },
    scope: 'ota',
    tableAccess: 'readWrite',
    face: 'octo',
    docs: {
      tag: 'OCTo',
      summary: 'Cancel a booking',
      description:
        'Cancels a held or confirmed booking until its availability closes, giving its places back at once; `reason` is kept and shown to the operator. Cancelling a cancelled or expired booking answers it unchanged.',
      success: { status: 200, description: 'The cancelled booking', data: 'OctoBooking' },
      requestExample: { reason: 'Customer changed plans' },
    },
  },
] as const satisfies readonly Route[];

export const routes: readonly Route[] = routeTable;

export type RouteId = (typeof routeTable)[number]['id'];
type RouteRow<Id extends RouteId> = Extract<(typeof routeTable)[number], { id: Id }>;
type Parsed<Row, Part extends keyof RequestSchemas> = Row extends { request: { [P in Part]: infer S extends JSONSchema } }
  ? FromSchema<S>
  : Record<string, never>;

/** What a route's handler receives once its request has been validated: the types derived from the route's own schemas. */
export interface RequestOf<Id extends RouteId> {
  path: Parsed<RouteRow<Id>, 'path'>;
  query: Parsed<RouteRow<Id>, 'query'>;
  body: Parsed<RouteRow<Id>, 'body'>;
}

/** The authorizer is not a route, but is bundled and hosted the same way. */
export const authorizerEntry = 'functions/auth/authorize.ts';

/** The path of a route with its parameters filled in (percent-encoded), e.g. a Location header. */
export function routePath(id: string, parameters: Record<string, string>): string {
  const route = routes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`No route '${id}'`);
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parameters[name]));
}

/** The project root: every `entry` is a path relative to it. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

export const entryPath = (entry: string): string => path.join(PROJECT_ROOT, entry);
