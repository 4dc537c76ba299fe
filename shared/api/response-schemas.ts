import { keyOperatorSchema } from '../accounts/schemas';
import { customerSchema } from '../booking/schemas';
import { erasureSchema } from '../booking/erasure-schemas';
import { answersSchema, bookingListSchema, bookingSchema, manifestSchema, manifestTimeslotSchema } from '../booking/schemas';
import {
  activityQuestionsSchema,
  availableDateSchema,
  availableTimeslotSchema,
  moneySchema,
  productSchema,
  questionSchema,
} from '../catalog/schemas';
import { operatorTimeslotSchema, timeslotCancellationSchema } from '../booking/timeslot-schemas';
import { usageLimitSchema, usageLimitStatusSchema } from '../usage/limit-schemas';
import { usageBatchResultSchema, usageEntrySchema, usageSummarySchema, voidedUsageEntrySchema } from '../usage/schemas';
import { issuedWebhookEndpointSchema, webhookEndpointSchema } from '../webhooks/schemas';
import { availabilityChangeSchema, availabilityChangesSchema } from '../changes/schemas';
import { subscriptionSchema } from '../octo/schemas/notifications';
import {
  availabilitySchema,
  bookingSchema as octoBookingSchema,
  calendarDaySchema,
  contactSchema,
  octoErrorSchema,
  pricingSchema,
  productSchema as octoProductSchema,
  supplierSchema,
  unitPricingSchema,
} from '../octo/schemas/answers';

/**
 * What the API answers, by name: the records inside `{ "data": ... }`, each
 * the schema its domain writes once and derives its type from, and the
 * problem of every error. The OpenAPI document (openapi.ts) publishes them,
 * and the contract test validates real responses against them, so a field
 * added to a record without its schema fails the tests. Objects are closed
 * (`additionalProperties: false`) for the same reason; problems are open, as
 * RFC 7807 allows extension members.
 */

const stringList = { type: 'array', items: { type: 'string' } } as const;

const Problem = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'instance'],
  properties: {
    type: { type: 'string', description: '`<problem base URL>/<kind>`, e.g. /problems/validation' },
    title: { type: 'string', description: 'The status phrase' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', description: 'Names the offending parameter or field' },
    instance: { type: 'string', description: 'The request path' },
    missingQuestions: { ...stringList, description: 'The required waiver questions a booking left unanswered' },
    taken: { type: 'integer', minimum: 0, description: 'A capacity below what is taken: the places held and booked on the timeslot' },
    errors: {
      type: 'array',
      description: 'An invalid body or query: every field at fault, each once, with the rule it breaks',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'detail'],
        properties: {
          field: { type: 'string', description: 'e.g. Entries[3].Usage' },
          detail: { type: 'string', description: 'The rule it breaks' },
        },
      },
    },
  },
} as const;

/** Named so that the OpenAPI document lists each once, as a component, and refers to it everywhere else. */
export const responseSchemas = {
  KeyOperator: keyOperatorSchema,
  Money: moneySchema,
  Product: productSchema,
  AvailableDate: availableDateSchema,
  AvailableTimeslot: availableTimeslotSchema,
  AvailabilityChange: availabilityChangeSchema,
  AvailabilityChanges: availabilityChangesSchema,
  Question: questionSchema,
  ActivityQuestions: activityQuestionsSchema,
  Customer: customerSchema,
  Answer: answersSchema.items,
  Booking: bookingSchema,
  BookingList: bookingListSchema,
  ManifestTimeslot: manifestTimeslotSchema,
  Manifest: manifestSchema,
  Erasure: erasureSchema,
  OperatorTimeslot: operatorTimeslotSchema,
  TimeslotCancellation: timeslotCancellationSchema,
  WebhookEndpoint: webhookEndpointSchema,
  IssuedWebhookEndpoint: issuedWebhookEndpointSchema,
  UsageEntry: usageEntrySchema,
  UsageBatchResult: usageBatchResultSchema,
  VoidedUsageEntry: voidedUsageEntrySchema,
  UsageSummary: usageSummarySchema,
  UsageLimit: usageLimitSchema,
  UsageLimitStatus: usageLimitStatusSchema,
  Problem,
  OctoSupplier: supplierSchema,
  OctoProduct: octoProductSchema,
  OctoPricing: pricingSchema,
  OctoUnitPricing: unitPricingSchema,
  OctoAvailability: availabilitySchema,
  OctoCalendarDay: calendarDaySchema,
  OctoContact: contactSchema,
  OctoBooking: octoBookingSchema,
  OctoSubscription: subscriptionSchema,
  OctoError: octoErrorSchema,
  GatewayError: {
    ...Problem,
    required: [...Problem.required, 'error', 'errorMessage'],
    properties: { ...Problem.properties, ...octoErrorSchema.properties },
    description:
      "API Gateway's own refusals (no key, a key without the scope, throttling, a body too large, a timeout): an RFC 7807 problem that also carries OCTo's `error` and `errorMessage`, since the gateway answers every route alike (an unknown route is a plain Problem: it is no OCTo request)",
  },
} as const;

export type ResponseSchemaName = keyof typeof responseSchemas;
