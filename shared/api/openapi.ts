import type { SchemaObject } from 'ajv';
import { SCOPES } from '../accounts/scopes';
import type { RequestSchemas } from '../http/handler';
import { DEFAULT_PROBLEM_BASE_URL, PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from './problem-types';
import { responseSchemas, type ResponseSchemaName } from './response-schemas';
import { gatewayProblems } from './gateway';
import { entryPath, routes, type Route } from './routes';

/**
 * The OpenAPI 3.1 document of the public API, built from the route table and
 * from the schemas each handler validates with (`httpHandler` attaches them
 * to the handler), so a route or a request field cannot exist in one and not
 * the other. Response records come from shared/http/response-schemas.ts,
 * which the contract test holds real responses to. What the code cannot
 * say (summaries, examples, the errors a domain raises) is the table below,
 * one entry per route; a route without an entry, or an entry without a
 * route, stops the document from being built.
 */

export type OpenApiDocument = Record<string, any>;

/** Where the local host and the stack publish the document, without authentication. */
export const OPENAPI_PATH = '/api/v2/openapi.json';

const SECURITY_SCHEME = 'bearerAuth';
const JSON_CONTENT_TYPE = 'application/json';

const customer = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' };
const answers = [
  { QuestionID: 'q_swim', Value: 'YES' },
  { QuestionID: 'q_id', Value: 'https://files.example.com/ana-silva-id.pdf' },
];
const product = {
  ProductID: 1001,
  ActivityID: 's_kayak01',
  Name: 'Sunset Kayak Tour',
  Description: 'Two hours along the cliffs.',
  DurationMinutes: 120,
  MaxParticipantsPerBooking: 6,
  PricePerParticipant: { Amount: 4500, Currency: 'EUR' },
  TimeZone: 'Europe/Lisbon',
};
const questions = [
  { QuestionID: 'q_swim', Text: 'Can every participant swim?', Type: 'YES_NO', Required: true },
  {
    QuestionID: 'q_id',
    Text: 'ID document',
    Type: 'FILE_UPLOAD',
    Required: true,
    AcceptedFileTypes: ['image/jpeg', 'application/pdf'],
    MaxFileSizeBytes: 5000000,
  },
];
const bookingRequest = {
  ActivityID: 's_kayak01',
  Date: '2026-07-01',
  Time: '10:00',
  Participants: 2,
  Customer: customer,
  PaymentReference: 'pay_8841',
  Answers: answers,
};
const booking = {
  BookingReference: 'K5DDMJMXFQ',
  Status: 'CONFIRMED',
  Channel: 'ota',
  PartnerKeyID: 'key_Xq3vN8aPz2Lm',
  PaymentReference: 'pay_8841',
  ActivityID: 's_kayak01',
  ProductID: 1001,
  ActivityName: 'Sunset Kayak Tour',
  Date: '2026-07-01',
  Time: '10:00',
  StartsAt: '2026-07-01T10:00:00+01:00',
  Participants: 2,
  TotalPrice: { Amount: 9000, Currency: 'EUR' },
  Customer: customer,
  WaiverStatus: 'COMPLETE',
  Answers: answers,
  CreatedAt: '2026-06-20T09:15:02.123Z',
};
const usageEntry = { ID: 3303523819094016, Meter: 'storage-gb', Usage: 0.25, OccurredAt: 1773146096 };

type Tag = 'Catalogue' | 'Bookings' | 'Usage';

interface OperationNotes {
  tag: Tag;
  summary: string;
  description: string;
  success: {
    status: 200 | 201;
    description: string;
    /** The schema of `data`: a named record, or a list of one. */
    data: ResponseSchemaName | { listOf: ResponseSchemaName };
    example: unknown;
    headers?: ('Location' | 'Idempotent-Replayed')[];
  };
  /** Statuses the domain raises beyond those the schemas, the body and the gateway imply. */
  errors?: number[];
  requestExample?: unknown;
  idempotencyKey?: boolean;
}

const operations: Record<string, OperationNotes> = {
  'list-products': {
    tag: 'Catalogue',
    summary: 'List the shopfront',
    description:
      "The operator's visible products in one response, sorted by name (at most 1,000; no pagination). `name` filters by a case-insensitive partial match.",
    success: { status: 200, description: 'The products', data: { listOf: 'Product' }, example: [product] },
  },
  'resolve-product': {
    tag: 'Catalogue',
    summary: 'Resolve one product by ID or name',
    description: 'Give exactly one of `ID` (the numeric ProductID) and `Name` (exact, case-insensitive); both or neither is 400.',
    success: { status: 200, description: 'The product', data: 'Product', example: product },
    errors: [400, 404],
  },
  'list-available-dates': {
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
  'list-available-timeslots': {
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
  'get-marketplace-questions': {
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
  'get-core-questions': {
    tag: 'Catalogue',
    summary: 'Waiver questions, bare list',
    description: "The activity's waiver questions as a bare list.",
    success: { status: 200, description: 'The questions', data: { listOf: 'Question' }, example: questions },
    errors: [404],
  },
  'create-booking': {
    tag: 'Bookings',
    summary: 'Book a timeslot',
    description:
      'Takes the places in one transaction, or nothing: a full timeslot is 409 `insufficient-capacity`. Without `Answers` the booking is accepted with `WaiverStatus: PENDING`; with them, every required question must be answered. An `Idempotency-Key` makes retries safe for 24 hours.',
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
  'get-booking': {
    tag: 'Bookings',
    summary: "Read back one of the partner's bookings",
    description: 'Only bookings made with the calling API key; any other booking is 404. The reference is accepted in lower case too.',
    success: { status: 200, description: 'The booking', data: 'Booking', example: booking },
    errors: [404],
  },
  'cancel-booking': {
    tag: 'Bookings',
    summary: "Cancel one of the partner's bookings",
    description:
      'Gives the places back. Takes no body. Cancelling a cancelled booking answers it unchanged; a booking whose timeslot has started is 409 `conflict`.',
    success: {
      status: 200,
      description: 'The cancelled booking',
      data: 'Booking',
      example: { ...booking, Status: 'CANCELLED', CancelledAt: '2026-06-22T16:40:11.508Z' },
    },
    errors: [404, 409],
  },
  'list-bookings': {
    tag: 'Bookings',
    summary: "The operator's bookings of every channel",
    description:
      "Bookings made (CreatedAt) from `from` to `to`, days in the operator's time zone, newest first, in pages of `limit` (default 50, at most 200). A filtered page may be shorter than `limit`; the list ends when NextCursor is null.",
    success: {
      status: 200,
      description: 'One page of bookings',
      data: 'BookingList',
      example: { Bookings: [booking], NextCursor: 'MjAyNi0wNi0yMFQwOToxNTowMi4xMjNaI0s1RERNSk1YRlE' },
    },
  },
  'record-usage': {
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
  'get-usage-summary': {
    tag: 'Usage',
    summary: 'Usage summary per meter',
    description:
      'Exact per-meter totals over whole days from `from` to `to` (both included, at most 92 days) in the zone `tz` (default UTC; zones whose midnight is not on a whole UTC hour are refused). `granularity=day` adds a daily series to every meter.',
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
};

interface ErrorResponse {
  name: string;
  description: string;
  /** Problem kinds answered with this status, each shown as an example. */
  kinds: { kind: string; detail: string }[];
}

const errorResponses: Record<number, ErrorResponse> = {
  400: {
    name: 'BadRequest',
    description:
      'A malformed path parameter, parameters that contradict each other (resolve-product without exactly one of ID and Name), or a body that is not JSON (`malformed-json`).',
    kinds: [
      { kind: 'bad-request', detail: "Path parameter 'ActivityID' must be 's_' followed by 1 to 64 letters or digits" },
      { kind: 'malformed-json', detail: 'The request body is not valid JSON' },
    ],
  },
  401: {
    name: 'Unauthorized',
    description: 'No API key, a malformed Authorization header, or an unknown or revoked key.',
    kinds: [{ kind: gatewayProblems.UNAUTHORIZED.kind, detail: gatewayProblems.UNAUTHORIZED.detail }],
  },
  403: {
    name: 'Forbidden',
    description: "A valid API key without the route's scope.",
    kinds: [{ kind: gatewayProblems.ACCESS_DENIED.kind, detail: gatewayProblems.ACCESS_DENIED.detail }],
  },
  404: {
    name: 'NotFound',
    description: "An unknown (or hidden, or another operator's or partner's) product, activity or booking.",
    kinds: [{ kind: 'not-found', detail: "No activity has ActivityID 's_kayak99'" }],
  },
  409: {
    name: 'Conflict',
    description:
      'The timeslot has fewer places left than asked for (`insufficient-capacity`; nothing is written), or the booking can no longer be cancelled because its timeslot has started (`conflict`).',
    kinds: [
      { kind: 'insufficient-capacity', detail: 'The timeslot 2026-07-01 10:00 has 1 place(s) left; 2 were requested' },
      { kind: 'conflict', detail: "Booking 'K5DDMJMXFQ' can no longer be cancelled: its timeslot started at 2026-07-01T10:00:00+01:00" },
    ],
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'A request body over 6 MB.',
    kinds: [{ kind: gatewayProblems.REQUEST_TOO_LARGE.kind, detail: gatewayProblems.REQUEST_TOO_LARGE.detail }],
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'A body sent without a JSON Content-Type.',
    kinds: [{ kind: 'unsupported-media-type', detail: "The request body must be sent with 'Content-Type: application/json'" }],
  },
  422: {
    name: 'ValidationFailed',
    description:
      'A missing or invalid query parameter, body field or Idempotency-Key (also a key sent again with a different request); `detail` names it. Nothing is written.',
    kinds: [{ kind: 'validation', detail: "Field 'Customer.Phone' must be in E.164 format, such as +351912345678" }],
  },
  429: {
    name: 'TooManyRequests',
    description: "Over the stage's throttle.",
    kinds: [{ kind: gatewayProblems.THROTTLED.kind, detail: gatewayProblems.THROTTLED.detail }],
  },
  500: {
    name: 'InternalError',
    description: 'Anything unexpected; safe to retry.',
    kinds: [{ kind: gatewayProblems.DEFAULT_5XX.kind, detail: gatewayProblems.DEFAULT_5XX.detail }],
  },
  504: {
    name: 'GatewayTimeout',
    description: 'The function did not answer in time; safe to retry with an Idempotency-Key.',
    kinds: [{ kind: gatewayProblems.INTEGRATION_TIMEOUT.kind, detail: gatewayProblems.INTEGRATION_TIMEOUT.detail }],
  },
};

/** Every route may be refused by the gateway (key, scope, throttle, timeout) or fail unexpectedly. */
const GATEWAY_STATUSES = [401, 403, 429, 500, 504];
/** A route that takes a body may also get one that is not JSON, too large, or not sent as JSON. */
const BODY_STATUSES = [400, 413, 415];

/** The error statuses a route documents: implied by its schemas, plus those its domain raises. */
function errorStatuses(schemas: RequestSchemas, notes: Pick<OperationNotes, 'errors'>): number[] {
  const statuses = new Set([...GATEWAY_STATUSES, ...(notes.errors ?? [])]);
  if (schemas.path) statuses.add(400);
  if (schemas.query || schemas.body) statuses.add(422);
  if (schemas.body) BODY_STATUSES.forEach((status) => statuses.add(status));
  return [...statuses].sort((a, b) => a - b);
}

const componentNames = new Map<object, string>(Object.entries(responseSchemas).map(([name, schema]) => [schema, name]));
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A validation schema as the document shows it: the `errorMessage`
 * annotation (ours, not JSON Schema's) becomes the description, the
 * `supported-day` format becomes `date` (the range is in the description),
 * and any named record is referred to rather than repeated.
 */
export function documentSchema(schema: unknown, options: { inline?: boolean } = {}): unknown {
  if (Array.isArray(schema)) return schema.map((item) => documentSchema(item));
  if (!schema || typeof schema !== 'object') return schema;
  const name = componentNames.get(schema);
  if (name && !options.inline) return schemaRef(name);
  const source = schema as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'errorMessage') continue;
    if (key === 'properties') {
      result.properties = Object.fromEntries(Object.entries(value as object).map(([field, sub]) => [field, documentSchema(sub)]));
    } else if (key === 'format' && value === 'supported-day') {
      result.format = 'date';
    } else {
      result[key] = documentSchema(value);
    }
  }
  if (typeof source.errorMessage === 'string' && source.description === undefined) {
    result.description = `${capitalise(source.errorMessage)}.`;
  }
  return result;
}

/** The schemas a route's handler validates with, as `httpHandler` attached them. */
export function handlerSchemas(route: Route): RequestSchemas {
  const { handler } = require(entryPath(route.entry)) as { handler?: { schemas?: RequestSchemas } };
  if (!handler?.schemas) throw new Error(`${route.entry} does not export a handler built by httpHandler`);
  return handler.schemas;
}

function parameters(schema: SchemaObject | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(([name, property]) => {
    const converted = documentSchema(property) as Record<string, unknown>;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof converted.description === 'string' ? { description: converted.description } : {}),
      schema: converted,
    };
  });
}

const dataEnvelope = (data: OperationNotes['success']['data']) => ({
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: { data: typeof data === 'string' ? schemaRef(data) : { type: 'array', items: schemaRef(data.listOf) } },
});

function operation(route: Route, notes: OperationNotes) {
  const schemas = handlerSchemas(route);
  const { success } = notes;
  return {
    operationId: route.id,
    tags: [notes.tag],
    summary: notes.summary,
    description: `${notes.description}\n\nRequires an API key with the scope \`${route.scope}\`.`,
    'x-required-scope': route.scope,
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      ...parameters(schemas.path, 'path'),
      ...parameters(schemas.query, 'query'),
      ...(notes.idempotencyKey ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    ...(schemas.body
      ? {
          requestBody: {
            required: true,
            content: { [JSON_CONTENT_TYPE]: { schema: documentSchema(schemas.body), example: notes.requestExample } },
          },
        }
      : {}),
    responses: {
      [success.status]: {
        description: success.description,
        ...(success.headers
          ? { headers: Object.fromEntries(success.headers.map((header) => [header, { $ref: `#/components/headers/${header}` }])) }
          : {}),
        content: { [JSON_CONTENT_TYPE]: { schema: dataEnvelope(success.data), example: { data: success.example } } },
      },
      ...Object.fromEntries(
        errorStatuses(schemas, notes).map((status) => [status, { $ref: `#/components/responses/${errorResponses[status].name}` }]),
      ),
    },
  };
}

export interface OpenApiOptions {
  /** Base of the problem `type` URIs the examples show, as the deployment configures it. */
  problemBaseUrl?: string;
}

function problemResponses(problemBaseUrl: string) {
  return Object.fromEntries(
    Object.entries(errorResponses).map(([status, response]) => [
      response.name,
      {
        description: response.description,
        ...(Number(status) === 401
          ? { headers: { 'WWW-Authenticate': { description: 'Always `Bearer`', schema: { type: 'string', const: 'Bearer' } } } }
          : {}),
        content: {
          [PROBLEM_CONTENT_TYPE]: {
            schema: schemaRef('Problem'),
            examples: Object.fromEntries(
              response.kinds.map(({ kind, detail }) => [
                kind,
                {
                  value: {
                    type: problemTypeUri(problemBaseUrl, kind),
                    title: statusTitle(Number(status)),
                    status: Number(status),
                    detail,
                    instance: '/api/v2/ota/marketplace/booking',
                  },
                },
              ]),
            ),
          },
        },
      },
    ]),
  );
}

export function openApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const documented = new Set(Object.keys(operations));
  const unknown = [...documented].filter((id) => !routes.some((route) => route.id === id));
  const missing = routes.filter((route) => !documented.has(route.id)).map((route) => route.id);
  if (unknown.length || missing.length) {
    throw new Error(`lib/openapi.ts and lib/routes.ts disagree: no route for [${unknown.join(', ')}], no notes for [${missing.join(', ')}]`);
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, operations[route.id]);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'OTA booking and meter usage API',
      version: '2.0.0',
      description:
        "Sell an operator's activities (products, availability, waiver questions, bookings) and meter usage (record entries, read exact summaries). " +
        'Success bodies are `{ "data": ... }` with PascalCase fields; every error is an RFC 7807 `application/problem+json`. ' +
        "Dates and times of products and availability are the operator's local time. Unknown query parameters are ignored; unknown body fields are refused (422).",
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'Local host (`npm start`)' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com/v1',
        description: 'AWS (the stack output ApiUrl)',
        variables: { apiId: { default: 'abcdef1234' }, region: { default: 'eu-west-1' } },
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [
      { name: 'Catalogue', description: 'Products, availability and waiver questions of the partner API (scope `ota`).' },
      { name: 'Bookings', description: 'Partner bookings (scope `ota`) and the operator\'s list of every channel (scope `bookings:read`).' },
      { name: 'Usage', description: 'Usage entries against named meters (`usage:write`) and their summaries (`usage:read`).' },
    ],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key (`ak_...`) as `Authorization: Bearer <key>`. A key belongs to one operator and carries scopes; each operation states the one it needs (`x-required-scope`). Scopes: ' +
            Object.entries(SCOPES)
              .map(([scope, meaning]) => `\`${scope}\` (${meaning})`)
              .join(', ') +
            '.',
        },
      },
      schemas: Object.fromEntries(Object.entries(responseSchemas).map(([name, schema]) => [name, documentSchema(schema, { inline: true })])),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: the same key with the same body answers the original 201 again (with `Idempotent-Replayed: true`); with a different body it is 422.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
          example: '0b9f4a1e-4f7c-4d7e-9a57-5f0e2c1d8b6a',
        },
      },
      headers: {
        Location: { description: 'Where the booking is read back', schema: { type: 'string' } },
        'Idempotent-Replayed': {
          description: 'Present (`true`) when an Idempotency-Key matched and the original response was answered again',
          schema: { type: 'string', const: 'true' },
        },
      },
      responses: problemResponses(options.problemBaseUrl ?? DEFAULT_PROBLEM_BASE_URL),
    },
  };
}
