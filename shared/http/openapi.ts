import { SCOPES } from '../accounts/scopes';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from '../api/problem-types';
import { DEFAULT_PROBLEM_BASE_URL } from '../core/config';
import { responseSchemas } from '../api/response-schemas';
import { operations, type OperationDocs, type RequestSchemas } from '../api/operations';
import { ANY_KEY, routes, type Route, type RouteId } from '../api/routes';
import { problemCatalog, type ProblemStatus } from './problem-catalog';

/**
 * The OpenAPI 3.1 document of the public API, built from the route table
 * (each row carries its operation's words and examples and the schemas its
 * request is validated with: the handlers' validators are generated from the
 * very same objects), so a route or a request field cannot exist in one and
 * not the other. Response records come from response-schemas.ts,
 * which the contract test holds real responses to. The marketplace's
 * answers are described here; another face's by its own module (FaceDocument).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document that tools and tests read by path
export type OpenApiDocument = Record<string, any>;

/** Where the local host and the stack publish the document, without authentication. */
export const OPENAPI_PATH = '/api/v2/openapi.json';

const SECURITY_SCHEME = 'bearerAuth';
export const JSON_CONTENT_TYPE = 'application/json';

/** Every route may be refused by the gateway (key, scope, throttle, timeout), stay contended through its retries, or fail unexpectedly. */
const ANY_ROUTE_STATUSES = [401, 403, 429, 500, 503, 504];
/** A route that takes a body may also get one that is not JSON, too large, or not sent as JSON. */
const BODY_STATUSES = [400, 413, 415];

/** The error statuses a route documents: implied by its schemas, plus those its domain raises. A route any key may call is never refused for scope. */
function errorStatuses(route: Route, schemas: RequestSchemas, notes: Pick<OperationDocs, 'errors'>): number[] {
  const statuses = new Set([...ANY_ROUTE_STATUSES.filter((status) => status !== 403 || route.scope !== ANY_KEY), ...(notes.errors ?? [])]);
  if (schemas.path) statuses.add(400);
  if (schemas.query || schemas.body) statuses.add(422);
  if (schemas.body) BODY_STATUSES.forEach((status) => statuses.add(status));
  return [...statuses].sort((a, b) => a - b);
}

const componentNames = new Map<object, string>(Object.entries(responseSchemas).map(([name, schema]) => [schema, name]));
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

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

function parameters(schema: RequestSchemas['query'], location: 'path' | 'query') {
  if (!schema) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>).map(([name, property]) => {
    const converted = documentSchema(property) as Record<string, unknown>;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      // An object travels as `name[key]=value` parameters (the handler gathers them: shared/http/handler.ts).
      ...(converted.type === 'object' ? { style: 'deepObject', explode: true } : {}),
      ...(typeof converted.description === 'string' ? { description: converted.description } : {}),
      schema: converted,
    };
  });
}

export function dataSchema(data: NonNullable<OperationDocs['success']['data']>) {
  if (typeof data === 'string') return schemaRef(data);
  if ('listOf' in data) return { type: 'array', items: schemaRef(data.listOf) };
  return { oneOf: data.oneOf.map(schemaRef) };
}

const dataEnvelope = (data: NonNullable<OperationDocs['success']['data']>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: { data: dataSchema(data) },
});

/**
 * What a face other than this one (the marketplace's: `{ data }` and RFC 7807
 * problems) adds to the document: its tag, a sentence on how its routes
 * answer, a note on each of its operations, its routes' responses and the
 * components they refer to. Each face's own module describes it; this
 * builder knows none.
 */
export interface FaceDocument {
  tag: { name: OperationDocs['tag']; description: string };
  about: string;
  note: string;
  /** Whether a route of the face that takes a body must be sent one. */
  bodyRequired: boolean;
  responses(route: Route & { id: RouteId }): Record<string, unknown>;
  components(problemBaseUrl: string): { responses: Record<string, unknown>; headers: Record<string, unknown> };
}

/** The document of every face the route table names. */
export type FaceDocuments = Record<NonNullable<Route['face']>, FaceDocument>;

function operation(route: Route & { id: RouteId }, problems: Record<number, ProblemStatus>, faces: FaceDocuments) {
  const notes = operations[route.id].docs;
  const schemas = operations[route.id].request ?? {};
  const { success } = notes;
  const face = route.face && faces[route.face];
  return {
    operationId: route.id,
    tags: [notes.tag],
    summary: notes.summary,
    description: `${notes.description}\n\n${route.scope === ANY_KEY ? 'Any valid API key may call it.' : `Requires an API key with the scope \`${route.scope}\`.`}${face ? ` ${face.note}` : ''}`,
    ...(route.scope === ANY_KEY ? {} : { 'x-required-scope': route.scope }),
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      ...parameters(schemas.path, 'path'),
      ...parameters(schemas.query, 'query'),
      ...(notes.idempotencyKey ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    ...(schemas.body
      ? {
          requestBody: {
            required: face ? face.bodyRequired : true,
            content: { [JSON_CONTENT_TYPE]: { schema: documentSchema(schemas.body), example: notes.requestExample } },
          },
        }
      : {}),
    responses: face
      ? face.responses(route)
      : {
          [success.status]: {
            description: success.description,
            ...(success.headers
              ? { headers: Object.fromEntries(success.headers.map((header) => [header, { $ref: `#/components/headers/${header}` }])) }
              : {}),
            ...(success.data
              ? { content: { [JSON_CONTENT_TYPE]: { schema: dataEnvelope(success.data), example: { data: success.example } } } }
              : {}),
          },
          ...Object.fromEntries(
            errorStatuses(route, schemas, notes).map((status) => [status, { $ref: `#/components/responses/${problems[status].name}` }]),
          ),
        },
  };
}

export interface OpenApiOptions {
  /** Base of the problem `type` URIs the examples show, as the deployment configures it. */
  problemBaseUrl?: string;
}

function problemResponses(problems: Record<number, ProblemStatus>, problemBaseUrl: string) {
  return Object.fromEntries(
    Object.entries(problems).map(([status, response]) => [
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
              response.examples.map(({ kind, detail }) => [
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

/** The document of every route of the table, each in its face: this module's own, or one of `faces`. */
export function openApiDocument(faces: FaceDocuments, options: OpenApiOptions = {}): OpenApiDocument {
  const problems = problemCatalog();
  const problemBaseUrl = options.problemBaseUrl ?? DEFAULT_PROBLEM_BASE_URL;
  const others = Object.values(faces).map((face) => ({ face, components: face.components(problemBaseUrl) }));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, problems, faces);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'OTA booking and meter usage API',
      version: '2.0.0',
      description:
        "Sell an operator's activities (products, availability, waiver questions, bookings) and meter usage (record entries, read exact summaries). " +
        'Success bodies are `{ "data": ... }` with PascalCase fields; every error is an RFC 7807 `application/problem+json`. ' +
        "Dates and times of products and availability are the operator's local time. Unknown query parameters are ignored; unknown body fields are refused (422)." +
        others.map(({ face }) => ` ${face.about}`).join(''),
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
      { name: 'Account', description: 'The calling key and its operator (any valid key).' },
      { name: 'Catalogue', description: 'Products, availability and waiver questions of the partner API (scope `ota`).' },
      {
        name: 'Bookings',
        description:
          "Partner bookings and holds (scope `ota`), the operator's list and manifest of every channel (scope `bookings:read`) and its cancellations (`bookings:write`).",
      },
      {
        name: 'Timeslots',
        description:
          "The operator's timeslots (scope `availability:write`): its view of a day, capacity, closing and reopening, one-off timeslots, and cancelling a timeslot with its bookings.",
      },
      {
        name: 'Webhooks',
        description:
          'A partner key registers one endpoint (scope `ota`) and is sent `booking.confirmed`, `booking.cancelled` (by the operator) and `hold.expired` for the bookings it made, signed as Standard Webhooks specifies.',
      },
      { name: 'Usage', description: 'Usage entries against named meters (`usage:write`) and their summaries (`usage:read`).' },
      ...others.map(({ face }) => face.tag),
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
      schemas: Object.fromEntries(
        Object.entries(responseSchemas).map(([name, schema]) => [name, documentSchema(schema, { inline: true })]),
      ),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: the same key with the same request answers the original response again (with `Idempotent-Replayed: true`); with a different request it is 422.',
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
        ...Object.assign({}, ...others.map(({ components }) => components.headers)),
      },
      responses: {
        ...problemResponses(problems, problemBaseUrl),
        ...Object.assign({}, ...others.map(({ components }) => components.responses)),
      },
    },
  };
}
