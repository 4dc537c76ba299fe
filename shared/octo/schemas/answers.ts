import type { FromSchema } from 'json-schema-to-ts';
import { UUID_PATTERN } from '../../booking/constants';
import { UNIT_TYPES } from '../../catalog/constants';

/**
 * OCTo's answers on the wire (docs.octo.travel), each schema written once:
 * what the OpenAPI document shows and the contract tests hold real responses
 * to (closed, so a field sent without its schema fails), and the TypeScript
 * types the face renders.
 */

const nullableString = { type: ['string', 'null'] } as const;
const integer = { type: 'integer' } as const;
const utc = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', description: 'UTC, to the second' } as const;
const localDateTime = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
  description: "Local to the supplier's time zone, with its offset",
} as const;
/** An object whose every property is required and no other is allowed. */
const closed = <const T extends Record<string, unknown>>(properties: T) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties) as readonly (keyof T & string)[],
    properties,
  }) as const;

export const pricingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['original', 'retail', 'net', 'currency', 'currencyPrecision', 'includedTaxes'],
  properties: {
    original: { ...integer, description: 'Minor units' },
    retail: { ...integer, description: 'Minor units: what the customer pays' },
    net: { type: ['integer', 'null'], description: 'Null: the catalogue has no net rates' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    currencyPrecision: integer,
    includedTaxes: { type: 'array', maxItems: 0, items: {}, description: 'None: the catalogue has no tax data' },
  },
} as const;
export type Pricing = FromSchema<typeof pricingSchema>;

export const unitPricingSchema = {
  ...pricingSchema,
  required: [...pricingSchema.required, 'unitId'],
  properties: { ...pricingSchema.properties, unitId: { type: 'string' } },
} as const;
export type UnitPricing = FromSchema<typeof unitPricingSchema>;

export const supplierSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'endpoint', 'contact'],
  properties: {
    id: { type: 'string', description: "The operator's ID" },
    name: { type: 'string' },
    endpoint: { type: 'string', description: 'The OCTo base URL the request was sent to' },
    contact: closed({ website: nullableString, email: nullableString, telephone: nullableString, address: nullableString }),
  },
} as const;
export type Supplier = FromSchema<typeof supplierSchema>;

const openingHours = { type: 'array', items: closed({ from: { type: 'string' }, to: { type: 'string' } }) } as const;

export const unitSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'internalName', 'reference', 'type', 'requiredContactFields', 'restrictions'],
  properties: {
    id: { type: 'string' },
    internalName: { type: 'string' },
    reference: { type: 'null' },
    type: { type: 'string', enum: UNIT_TYPES },
    requiredContactFields: { type: 'array', maxItems: 0, items: {} },
    restrictions: closed({
      minAge: integer,
      maxAge: integer,
      idRequired: { type: 'boolean' },
      minQuantity: { type: ['integer', 'null'] },
      maxQuantity: { type: ['integer', 'null'] },
      paxCount: integer,
      accompaniedBy: { type: 'array', items: { type: 'string' } },
    }),
    pricingFrom: { type: 'array', items: pricingSchema, description: 'octo/pricing' },
  },
} as const;

export const optionSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'default',
    'internalName',
    'reference',
    'availabilityLocalStartTimes',
    'cancellationCutoff',
    'cancellationCutoffAmount',
    'cancellationCutoffUnit',
    'requiredContactFields',
    'restrictions',
    'units',
  ],
  properties: {
    id: { type: 'string', const: 'DEFAULT' },
    default: { type: 'boolean', const: true },
    internalName: { type: 'string' },
    reference: { type: 'null' },
    availabilityLocalStartTimes: {
      type: 'array',
      items: { type: 'string', pattern: '^\\d{2}:\\d{2}$' },
      description: 'START_TIME: the start times; OPENING_HOURS: none',
    },
    cancellationCutoff: { type: 'string' },
    cancellationCutoffAmount: integer,
    cancellationCutoffUnit: { type: 'string', const: 'minute' },
    requiredContactFields: { type: 'array', maxItems: 0, items: {} },
    restrictions: closed({ minUnits: integer, maxUnits: { type: ['integer', 'null'] } }),
    units: { type: 'array', minItems: 1, items: unitSchema },
    pricingFrom: { type: 'array', items: pricingSchema, description: 'octo/pricing: the cheapest unit' },
  },
} as const;

export const productSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'internalName',
    'reference',
    'locale',
    'timeZone',
    'allowFreesale',
    'instantConfirmation',
    'instantDelivery',
    'availabilityRequired',
    'availabilityType',
    'deliveryFormats',
    'deliveryMethods',
    'redemptionMethod',
    'options',
  ],
  properties: {
    id: { type: 'string', description: 'The ActivityID' },
    internalName: { type: 'string' },
    reference: { type: 'string', description: 'The ProductID' },
    locale: { type: 'string' },
    timeZone: { type: 'string' },
    allowFreesale: { type: 'boolean', const: false },
    instantConfirmation: { type: 'boolean', const: true },
    instantDelivery: { type: 'boolean', const: true },
    availabilityRequired: { type: 'boolean', const: true },
    availabilityType: { type: 'string', enum: ['START_TIME', 'OPENING_HOURS'] },
    deliveryFormats: { type: 'array', items: { type: 'string', const: 'QRCODE' } },
    deliveryMethods: { type: 'array', items: { type: 'string', const: 'VOUCHER' } },
    redemptionMethod: { type: 'string', const: 'MANIFEST' },
    options: { type: 'array', minItems: 1, maxItems: 1, items: optionSchema },
    defaultCurrency: { type: 'string', description: 'octo/pricing' },
    availableCurrencies: { type: 'array', items: { type: 'string' }, description: 'octo/pricing' },
    pricingPer: { type: 'string', const: 'UNIT', description: 'octo/pricing' },
  },
} as const;
export type Product = FromSchema<typeof productSchema>;

const availabilityStatus = { type: 'string', enum: ['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED'] } as const;

export const availabilitySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'localDateTimeStart',
    'localDateTimeEnd',
    'utcCutoffAt',
    'allDay',
    'available',
    'status',
    'vacancies',
    'capacity',
    'maxUnits',
    'openingHours',
  ],
  properties: {
    id: { ...localDateTime, description: 'The local start with its offset' },
    localDateTimeStart: localDateTime,
    localDateTimeEnd: localDateTime,
    utcCutoffAt: { ...utc, description: 'When it closes for sale and for cancellation' },
    allDay: { type: 'boolean' },
    available: { type: 'boolean' },
    status: availabilityStatus,
    vacancies: { type: 'integer', minimum: 0 },
    capacity: integer,
    maxUnits: { type: 'null' },
    openingHours,
    unitPricing: { type: 'array', items: unitPricingSchema, description: 'octo/pricing' },
  },
} as const;
export type Availability = FromSchema<typeof availabilitySchema>;

export const calendarDaySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['localDate', 'available', 'status', 'vacancies', 'capacity', 'openingHours'],
  properties: {
    localDate: { type: 'string', format: 'date' },
    available: { type: 'boolean' },
    status: availabilityStatus,
    vacancies: { type: 'integer', minimum: 0, description: 'The most of any availability of the day' },
    capacity: integer,
    openingHours,
    unitPricingFrom: { type: 'array', items: unitPricingSchema, description: 'octo/pricing' },
  },
} as const;
export type CalendarDay = FromSchema<typeof calendarDaySchema>;

export const contactSchema = closed({
  fullName: nullableString,
  firstName: nullableString,
  lastName: nullableString,
  emailAddress: nullableString,
  phoneNumber: nullableString,
  locales: { type: 'array', items: { type: 'string' } },
  postalCode: nullableString,
  country: nullableString,
  notes: nullableString,
});
export type Contact = FromSchema<typeof contactSchema>;

const bookingStatus = { type: 'string', enum: ['ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'] } as const;
const uuid = { type: 'string', pattern: UUID_PATTERN, description: 'Lower-case' } as const;

export const voucherSchema = closed({
  redemptionMethod: { type: 'string', const: 'MANIFEST' },
  utcRedeemedAt: { type: 'null' },
  deliveryOptions: {
    type: 'array',
    items: closed({ deliveryFormat: { type: 'string', const: 'QRCODE' }, deliveryValue: { type: 'string' } }),
  },
});

export const unitItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['uuid', 'resellerReference', 'supplierReference', 'unitId', 'status', 'utcRedeemedAt', 'contact', 'ticket'],
  properties: {
    uuid,
    resellerReference: { type: 'null' },
    supplierReference: { type: 'string' },
    unitId: { type: 'string' },
    status: bookingStatus,
    utcRedeemedAt: { type: 'null' },
    contact: contactSchema,
    ticket: { type: 'null' },
    pricing: { ...pricingSchema, description: 'octo/pricing' },
  },
} as const;

export const bookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'uuid',
    'testMode',
    'resellerReference',
    'supplierReference',
    'status',
    'utcCreatedAt',
    'utcUpdatedAt',
    'utcExpiresAt',
    'utcRedeemedAt',
    'utcConfirmedAt',
    'productId',
    'optionId',
    'cancellable',
    'cancellation',
    'freesale',
    'availabilityId',
    'availability',
    'contact',
    'notes',
    'deliveryMethods',
    'voucher',
    'unitItems',
  ],
  properties: {
    id: { type: 'string', description: 'The BookingReference' },
    uuid,
    testMode: { type: 'boolean', const: false },
    resellerReference: nullableString,
    supplierReference: { type: 'string', description: 'The BookingReference' },
    status: bookingStatus,
    utcCreatedAt: utc,
    utcUpdatedAt: utc,
    utcExpiresAt: { ...utc, type: ['string', 'null'] },
    utcRedeemedAt: { type: 'null' },
    utcConfirmedAt: { ...utc, type: ['string', 'null'] },
    productId: { type: 'string' },
    optionId: { type: 'string', const: 'DEFAULT' },
    cancellable: { type: 'boolean' },
    cancellation: {
      oneOf: [{ type: 'null' }, closed({ refund: { type: 'string', const: 'FULL' }, reason: nullableString, utcCancelledAt: utc })],
    },
    freesale: { type: 'boolean', const: false },
    availabilityId: { type: 'string' },
    availability: availabilitySchema,
    contact: contactSchema,
    notes: nullableString,
    deliveryMethods: { type: 'array', items: { type: 'string', const: 'VOUCHER' } },
    voucher: voucherSchema,
    unitItems: { type: 'array', items: unitItemSchema },
    pricing: { ...pricingSchema, description: 'octo/pricing: the sum of the unit items' },
  },
} as const;
export type Booking = FromSchema<typeof bookingSchema>;

/** OCTo's error body: a code, a sentence, and for an unknown ID the ID as sent. */
export const octoErrorSchema = {
  type: 'object',
  required: ['error', 'errorMessage'],
  properties: {
    error: {
      type: 'string',
      enum: [
        'INVALID_PRODUCT_ID',
        'INVALID_OPTION_ID',
        'INVALID_UNIT_ID',
        'INVALID_AVAILABILITY_ID',
        'INVALID_BOOKING_UUID',
        'BAD_REQUEST',
        'UNPROCESSABLE_ENTITY',
        'UNAUTHORIZED',
        'FORBIDDEN',
        'TOO_MANY_REQUESTS',
        'INTERNAL_SERVER_ERROR',
      ],
    },
    errorMessage: { type: 'string', minLength: 1 },
    productId: { type: 'string' },
    optionId: { type: 'string' },
    unitId: { type: 'string' },
    availabilityId: { type: 'string' },
    uuid: { type: 'string' },
  },
} as const;
export type OctoErrorBody = FromSchema<typeof octoErrorSchema>;
export type OctoErrorCode = OctoErrorBody['error'];
