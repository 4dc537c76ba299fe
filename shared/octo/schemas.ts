import type { FromSchema } from 'json-schema-to-ts';
import { UNIT_TYPES } from '../catalog/constants';
import { isoDate } from '../core/day-schemas';

/**
 * OCTo on the wire (docs.octo.travel), each schema written once: the
 * requests the /octo routes validate (OCTo ignores fields it does not know,
 * so the request schemas leave other fields alone), the answers the OpenAPI
 * document shows and the contract tests hold real responses to (closed, so
 * a field sent without its schema fails), and the TypeScript types of both.
 */

const MAX_ID = 200;

/** An ID a client sends: any text; one that names nothing is an unknown ID (INVALID_*_ID), never a malformed request. */
const id = (what: string) =>
  ({ type: 'string', minLength: 1, maxLength: MAX_ID, errorMessage: `must be ${what} of 1 to ${MAX_ID} characters` }) as const;

const text = (maxLength: number) =>
  ({ type: ['string', 'null'], maxLength, errorMessage: `must be text of at most ${maxLength} characters, or null` }) as const;

export const productPath = { type: 'object', required: ['productId'], properties: { productId: id('a product ID') } } as const;
export const bookingPath = { type: 'object', required: ['uuid'], properties: { uuid: id('the booking UUID') } } as const;

/** A contact as a reseller sends it: every field optional; null clears a field held before. */
export const contactBody = {
  type: 'object',
  properties: {
    fullName: text(200),
    firstName: text(100),
    lastName: text(100),
    emailAddress: text(254),
    phoneNumber: text(50),
    locales: {
      type: 'array',
      maxItems: 10,
      items: { type: 'string', maxLength: 35 },
      errorMessage: 'must be a list of at most 10 language tags',
    },
    postalCode: text(20),
    country: text(100),
    notes: text(2000),
  },
} as const;

const unitsFilter = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['id', 'quantity'],
    properties: { id: id('a unit ID'), quantity: { type: 'integer', minimum: 1, maximum: 10_000, errorMessage: 'must be 1 to 10000' } },
  },
  errorMessage: 'must be a list of { id, quantity }',
} as const;

const currency = { type: ['string', 'null'], maxLength: 3, errorMessage: 'must be an ISO 4217 code' } as const;
const expirationMinutes = {
  type: 'integer',
  minimum: 1,
  maximum: 10_080,
  errorMessage: 'must be a whole number of minutes from 1 (holds last at most 60)',
} as const;

export const calendarBody = {
  type: 'object',
  required: ['productId', 'optionId', 'localDateStart', 'localDateEnd'],
  properties: {
    productId: id('a product ID'),
    optionId: id('an option ID'),
    localDateStart: isoDate,
    localDateEnd: isoDate,
    units: unitsFilter,
    currency,
  },
} as const;
export type CalendarRequest = FromSchema<typeof calendarBody>;

/** Exactly one of `localDate`, `localDateStart` with `localDateEnd`, and `availabilityIds` (checked by the face). */
export const availabilityBody = {
  type: 'object',
  required: ['productId', 'optionId'],
  properties: {
    productId: id('a product ID'),
    optionId: id('an option ID'),
    localDate: isoDate,
    localDateStart: isoDate,
    localDateEnd: isoDate,
    availabilityIds: { type: 'array', minItems: 1, maxItems: 100, items: id('an availability ID'), errorMessage: 'must be 1 to 100 IDs' },
    units: unitsFilter,
    currency,
  },
} as const;
export type AvailabilityRequest = FromSchema<typeof availabilityBody>;

const unitItemsBody = {
  type: 'array',
  maxItems: 1000,
  items: {
    type: 'object',
    required: ['unitId'],
    properties: {
      unitId: id('a unit ID'),
      uuid: { type: 'string', maxLength: 36, pattern: '^[0-9a-fA-F-]{36}$', errorMessage: 'must be a UUID' },
      resellerReference: text(100),
      contact: contactBody,
    },
  },
  errorMessage: 'must be a list of at most 1000 unit items',
} as const;

export const reservationBody = {
  type: 'object',
  required: ['productId', 'optionId', 'availabilityId'],
  properties: {
    uuid: { type: 'string', maxLength: 36, errorMessage: 'must be a UUID (8-4-4-4-12 hexadecimal digits)' },
    productId: id('a product ID'),
    optionId: id('an option ID'),
    availabilityId: id('an availability ID'),
    unitItems: unitItemsBody,
    expirationMinutes,
    notes: text(2000),
    resellerReference: text(100),
    contact: contactBody,
    currency,
  },
} as const;
export type ReservationBody = FromSchema<typeof reservationBody>;

export const confirmationBody = {
  type: 'object',
  properties: { resellerReference: text(100), contact: contactBody, unitItems: unitItemsBody, emailReceipt: { type: 'boolean' } },
} as const;

export const extensionBody = { type: 'object', properties: { expirationMinutes } } as const;

export const bookingUpdateBody = {
  type: 'object',
  properties: {
    productId: id('a product ID'),
    optionId: id('an option ID'),
    availabilityId: id('an availability ID'),
    unitItems: unitItemsBody,
    expirationMinutes,
    notes: text(2000),
    resellerReference: text(100),
    contact: contactBody,
    emailReceipt: { type: 'boolean' },
  },
} as const;
export type BookingUpdateBody = FromSchema<typeof bookingUpdateBody>;

export const cancellationBody = {
  type: 'object',
  properties: {
    reason: {
      type: ['string', 'null'],
      maxLength: 500,
      pattern: '^[^\\u0000-\\u001F\\u007F]*$',
      errorMessage: 'must be at most 500 characters without control characters, or null',
    },
    force: { type: 'boolean' },
  },
} as const;

/** GET /octo/bookings: at least one of the first four forms (checked by the face). */
export const bookingsQuery = {
  type: 'object',
  properties: {
    supplierReference: { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'must be 1 to 100 characters' },
    resellerReference: { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'must be 1 to 100 characters' },
    localDate: isoDate,
    localDateStart: isoDate,
    localDateEnd: isoDate,
    productId: id('a product ID'),
    optionId: id('an option ID'),
  },
} as const;

/* The answers. */

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

const availabilityStatus = { type: 'string', enum: ['AVAILABLE', 'LIMITED', 'SOLD_OUT'] } as const;

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
const uuid = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } as const;

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
