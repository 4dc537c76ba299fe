import { gatewayProblems } from '../api/gateway';
import type { OperationDocs } from '../api/operation';
import { operations } from '../api/operations';
import { PROBLEM_CONTENT_TYPE, problemTypeUri, statusTitle } from '../api/problem-types';
import type { Route, RouteId } from '../api/routes';
import { dataSchema, JSON_CONTENT_TYPE, schemaRef, type FaceDocument } from '../http/openapi';
import { octoExamples } from './examples';
import { octoMembersOf } from './gateway-errors';

/**
 * OCTo's part of the OpenAPI document (shared/http/openapi.ts builds the
 * rest): its routes answer the bare OCTo object with the capabilities
 * applied, OCTo's error body for every client fault, and the gateway's
 * refusals as problems that carry OCTo's members too.
 */

/** The gateway's own refusals of an OCTo route, and a body over the limit; every other client fault of OCTo is 400. */
const OCTO_GATEWAY_STATUSES = [401, 403, 413, 429, 504] as const;

/** An OCTo route's answers: the bare OCTo body, OCTo's error body, and the gateway's refusals (problems that carry OCTo's fields too). */
function octoResponses(route: Route & { id: RouteId }) {
  const { success } = operations[route.id].docs;
  const data = success.data as NonNullable<OperationDocs['success']['data']>;
  const name = typeof data === 'string' ? data : 'listOf' in data ? data.listOf : undefined;
  const example = name && (typeof data === 'string' ? octoExamples[name] : [octoExamples[name]]);
  return {
    200: {
      description: success.description,
      headers: { 'Octo-Capabilities': { $ref: '#/components/headers/Octo-Capabilities' } },
      content: { [JSON_CONTENT_TYPE]: { schema: dataSchema(data), example } },
    },
    400: { $ref: '#/components/responses/OctoBadRequest' },
    ...Object.fromEntries(
      OCTO_GATEWAY_STATUSES.filter((status) => status !== 413 || operations[route.id].request?.body).map((status) => [
        status,
        { $ref: `#/components/responses/${OCTO_GATEWAY_RESPONSES[status]}` },
      ]),
    ),
    500: { $ref: '#/components/responses/OctoInternalError' },
  };
}

const OCTO_GATEWAY_RESPONSES: Record<(typeof OCTO_GATEWAY_STATUSES)[number], string> = {
  401: 'OctoUnauthorized',
  403: 'OctoForbidden',
  413: 'OctoPayloadTooLarge',
  429: 'OctoTooManyRequests',
  504: 'OctoGatewayTimeout',
};

const OCTO_NOTE =
  "An OCTo route: the answer is the OCTo object itself (no `data` envelope), `Octo-Capabilities: octo/pricing` adds prices, unknown body fields are ignored, and every client fault is a 400 with OCTo's error body (an unknown ID is `INVALID_*_ID`, never a 404).";

/** The OCTo routes' own error responses, and the gateway's refusals every route shares (with OCTo's fields beside the problem). */
function octoErrorResponses(problemBaseUrl: string) {
  const gateway = (type: keyof typeof gatewayProblems, description: string) => {
    const { status, kind, detail } = gatewayProblems[type];
    return {
      description,
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          schema: schemaRef('GatewayError'),
          example: {
            type: problemTypeUri(problemBaseUrl, kind),
            title: statusTitle(status),
            status,
            detail,
            instance: '/octo/bookings',
            ...octoMembersOf(status, detail),
          },
        },
      },
    };
  };
  const octoExample = (error: string, errorMessage: string, echo: Record<string, string> = {}) => ({
    value: { error, errorMessage, ...echo },
  });
  return {
    OctoBadRequest: {
      description:
        "Any client fault, in OCTo's error body: an unknown product, option, unit, availability or booking uuid (`INVALID_*_ID`, with the ID as sent), a request OCTo's schema refuses (`BAD_REQUEST`), or one the state of things refuses: sold out, a unit over its limits, an expired reservation, a closed availability (`UNPROCESSABLE_ENTITY`).",
      content: {
        [JSON_CONTENT_TYPE]: {
          schema: schemaRef('OctoError'),
          examples: {
            INVALID_PRODUCT_ID: octoExample(
              'INVALID_PRODUCT_ID',
              "The productId 's_nothing' is not a product of this supplier: No activity has ActivityID 's_nothing'",
              { productId: 's_nothing' },
            ),
            BAD_REQUEST: octoExample('BAD_REQUEST', "Field 'productId' is required"),
            UNPROCESSABLE_ENTITY: octoExample(
              'UNPROCESSABLE_ENTITY',
              'The timeslot 2026-07-01 10:00 has 1 place(s) left; 2 were requested',
            ),
          },
        },
      },
    },
    OctoInternalError: {
      description: "Anything unexpected: OCTo's body from the function, a problem (with OCTo's fields) from the gateway. Safe to retry.",
      content: {
        [JSON_CONTENT_TYPE]: {
          schema: schemaRef('OctoError'),
          example: { error: 'INTERNAL_SERVER_ERROR', errorMessage: 'The server could not complete the request; it is safe to retry' },
        },
        [PROBLEM_CONTENT_TYPE]: gateway('DEFAULT_5XX', '').content[PROBLEM_CONTENT_TYPE],
      },
    },
    OctoUnauthorized: gateway('UNAUTHORIZED', 'No API key, a malformed Authorization header, or an unknown or revoked key (the gateway).'),
    OctoForbidden: gateway('ACCESS_DENIED', 'A valid API key without the scope `ota` (the gateway).'),
    OctoPayloadTooLarge: gateway('REQUEST_TOO_LARGE', 'A request body over 6 MB (the gateway).'),
    OctoTooManyRequests: gateway(
      'THROTTLED',
      "Over the API key's rate limit or the stage's throttle; retry after `Retry-After` (the gateway).",
    ),
    OctoGatewayTimeout: gateway('INTEGRATION_TIMEOUT', 'The function did not answer in time; safe to retry (the gateway).'),
  };
}

export const octoDocument: FaceDocument = {
  tag: {
    name: 'OCTo',
    description:
      "The same catalogue, capacity and bookings for OCTo resellers (docs.octo.travel), under `/octo` with the same keys (scope `ota`): the key's operator is the supplier, the key is the reseller. Bare OCTo bodies, OCTo's error body, capability `octo/pricing`.",
  },
  about: 'The OCTo routes under `/octo` speak OCTo instead: see the OCTo tag.',
  note: OCTO_NOTE,
  bodyRequired: false,
  responses: octoResponses,
  components: (problemBaseUrl) => ({
    responses: octoErrorResponses(problemBaseUrl),
    headers: {
      'Octo-Capabilities': {
        description: 'The capabilities applied to the answer (`octo/pricing`, or empty)',
        schema: { type: 'string' },
      },
    },
  }),
};
