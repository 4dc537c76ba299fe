import { zProduct } from '@octocloud/types';
import { operations } from '../../shared/api/operations';
import { routes, type Route } from '../../shared/api/routes';
import { config } from '../../shared/core/config';
import { openApiDocument } from '../../shared/http/openapi';
import { octoDocument } from '../../shared/octo/openapi';
import { type HttpClient } from '../support/fixtures';
import { availabilityId, OCTO, reservation, octoWorld } from '../support/octo';
import { notificationCases } from '../support/octo-notifications';
import { errorTypes, octoTypes } from '../support/octo-types';
import { documentValidator, documentedResponse } from '../support/openapi';

/**
 * Every OCTo route through the local host: its 200, each error code a
 * client can provoke on it (INVALID_*_ID with the ID echoed, BAD_REQUEST,
 * UNPROCESSABLE_ENTITY), the gateway's 401, 403 and 413. Each real answer is
 * held twice: to the OpenAPI document (status, Content-Type, schema; our
 * schemas are closed, so an undocumented field fails) and to the zod schemas
 * of @octocloud/types, OCTo's own published types (pricing: octo-pricing.test.ts).
 */

const document = openApiDocument({ octo: octoDocument }, { problemBaseUrl: config().problemBaseUrl });
const errorsOf = documentValidator(document);
const octoRoutes = routes.filter((route) => route.face === 'octo');

type Response = Awaited<ReturnType<HttpClient>>;

const { world, day } = octoWorld();

/** Reservations spread over the days and both start times, so that no availability fills. */
let spread = 0;

/** A reservation of the boat trip, as the OCTo answer. */
async function reserved(units = ['adult', 'child'], offset?: number, extra: Record<string, unknown> = {}) {
  spread += 1;
  const response = await world.octo(
    'POST',
    '/bookings',
    reservation(day(offset ?? 1 + (spread % 9)), spread % 2 ? '10:00' : '15:00', units, extra),
  );
  expect(response.status).toBe(200);
  return response.json;
}

async function confirmed(units = ['adult', 'child'], offset = 1) {
  const { uuid } = await reserved(units, offset);
  const response = await world.octo('POST', `/bookings/${uuid}/confirm`, {
    resellerReference: `R-${uuid.slice(0, 8)}`,
    contact: { fullName: 'Ana Silva', firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.com' },
  });
  expect(response.status).toBe(200);
  return response.json;
}

const INVALID_UUID = '6f1c1d66-0000-4000-8000-000000000000';

const tooLarge = 'x'.repeat(6 * 1024 * 1024 + 1);

/** How to provoke each answer of each OCTo route, named by status and OCTo error code. */
const cases: Record<string, Record<string, () => Promise<Response>>> = {
  'octo-get-supplier': { '200': () => world.octo('GET', '/supplier') },
  'octo-list-products': { '200': () => world.octo('GET', '/products') },
  'octo-get-product': {
    '200': () => world.octo('GET', '/products/s_museum1'),
    '400 INVALID_PRODUCT_ID': () => world.octo('GET', '/products/s_hidden1'),
  },
  'octo-availability-calendar': {
    '200': () =>
      world.octo('POST', '/availability/calendar', {
        productId: 's_boat1',
        optionId: 'DEFAULT',
        localDateStart: day(0),
        localDateEnd: day(6),
      }),
    '400 INVALID_PRODUCT_ID': () =>
      world.octo('POST', '/availability/calendar', {
        productId: 'invalidProductId',
        optionId: 'DEFAULT',
        localDateStart: day(0),
        localDateEnd: day(6),
      }),
    '400 INVALID_OPTION_ID': () =>
      world.octo('POST', '/availability/calendar', {
        productId: 's_boat1',
        optionId: 'invalidOptionId',
        localDateStart: day(0),
        localDateEnd: day(6),
      }),
    '400 INVALID_UNIT_ID': () =>
      world.octo('POST', '/availability/calendar', {
        productId: 's_boat1',
        optionId: 'DEFAULT',
        localDateStart: day(0),
        localDateEnd: day(6),
        units: [{ id: 'invalidUnitId', quantity: 1 }],
      }),
    '400 BAD_REQUEST': () =>
      world.octo('POST', '/availability/calendar', { productId: 's_boat1', optionId: 'DEFAULT', localDateEnd: day(6) }),
    '413': () =>
      world.request('POST', `${OCTO}/availability/calendar`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  'octo-check-availability': {
    '200': () => world.octo('POST', '/availability', { productId: 's_museum1', optionId: 'DEFAULT', localDate: day(2) }),
    '400 INVALID_PRODUCT_ID': () => world.octo('POST', '/availability', { productId: 's_nothing', optionId: 'DEFAULT', localDate: day(2) }),
    '400 INVALID_OPTION_ID': () => world.octo('POST', '/availability', { productId: 's_boat1', optionId: 'OTHER', localDate: day(2) }),
    '400 INVALID_AVAILABILITY_ID': () =>
      world.octo('POST', '/availability', {
        productId: 's_boat1',
        optionId: 'DEFAULT',
        availabilityIds: [availabilityId(day(2), '11:11')],
      }),
    '400 BAD_REQUEST': () =>
      world.octo('POST', '/availability', {
        productId: 's_boat1',
        optionId: 'DEFAULT',
        localDate: day(2),
        availabilityIds: [availabilityId(day(2), '10:00')],
      }),
    '413': () =>
      world.request('POST', `${OCTO}/availability`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  'octo-reserve-booking': {
    '200': () => world.octo('POST', '/bookings', reservation(day(0), '10:00', ['adult', 'child', 'infant'])),
    '400 INVALID_PRODUCT_ID': () =>
      world.octo('POST', '/bookings', { ...reservation(day(1), '10:00', ['adult']), productId: 'invalidProductId' }),
    '400 INVALID_OPTION_ID': () =>
      world.octo('POST', '/bookings', { ...reservation(day(1), '10:00', ['adult']), optionId: 'invalidOptionId' }),
    '400 INVALID_AVAILABILITY_ID': () =>
      world.octo('POST', '/bookings', { ...reservation(day(1), '10:00', ['adult']), availabilityId: 'invalidAvailabilityId' }),
    '400 INVALID_UNIT_ID': () => world.octo('POST', '/bookings', reservation(day(1), '10:00', ['adult', 'invalidUnitId'])),
    '400 INVALID_BOOKING_UUID': async () => {
      const { uuid } = await reserved(['adult'], 2);
      return world.octo('POST', '/bookings', reservation(day(2), '10:00', ['adult', 'adult'], { uuid }));
    },
    '400 UNPROCESSABLE_ENTITY': () => world.octo('POST', '/bookings', reservation(day(1), '10:00', ['infant'])),
    '400 BAD_REQUEST': () => world.octo('POST', '/bookings', { productId: 's_boat1', optionId: 'DEFAULT' }),
    '413': () =>
      world.request('POST', `${OCTO}/bookings`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  'octo-list-bookings': {
    '200': async () => world.octo('GET', `/bookings?resellerReference=${(await confirmed()).resellerReference}`),
    '400 INVALID_PRODUCT_ID': () => world.octo('GET', `/bookings?localDate=${day(1)}&productId=s_nothing`),
    '400 INVALID_OPTION_ID': () => world.octo('GET', `/bookings?localDate=${day(1)}&optionId=OTHER`),
    '400 BAD_REQUEST': () => world.octo('GET', '/bookings'),
  },
  'octo-get-booking': {
    '200': async () => world.octo('GET', `/bookings/${(await reserved()).uuid}`),
    '400 INVALID_BOOKING_UUID': () => world.octo('GET', '/bookings/invalidUUID'),
  },
  'octo-update-booking': {
    '200': async () =>
      world.octo('PATCH', `/bookings/${(await reserved()).uuid}`, {
        availabilityId: availabilityId(day(3), '15:00'),
        notes: 'Window seats',
      }),
    '400 INVALID_PRODUCT_ID': async () => world.octo('PATCH', `/bookings/${(await reserved()).uuid}`, { productId: 's_nothing' }),
    '400 INVALID_OPTION_ID': async () => world.octo('PATCH', `/bookings/${(await reserved()).uuid}`, { optionId: 'OTHER' }),
    '400 INVALID_UNIT_ID': async () =>
      world.octo('PATCH', `/bookings/${(await reserved()).uuid}`, { unitItems: [{ unitId: 'invalidUnitId' }] }),
    '400 INVALID_AVAILABILITY_ID': async () =>
      world.octo('PATCH', `/bookings/${(await reserved()).uuid}`, { availabilityId: availabilityId(day(30), '10:00') }),
    '400 INVALID_BOOKING_UUID': () => world.octo('PATCH', `/bookings/${INVALID_UUID}`, { notes: 'x' }),
    '400 UNPROCESSABLE_ENTITY': async () => {
      const { uuid } = await reserved();
      await world.octo('POST', `/bookings/${uuid}/cancel`, {});
      return world.octo('PATCH', `/bookings/${uuid}`, { notes: 'too late' });
    },
    '400 BAD_REQUEST': async () => world.octo('PATCH', `/bookings/${(await reserved()).uuid}`, { notes: 7 }),
    '413': () =>
      world.request('PATCH', `${OCTO}/bookings/${INVALID_UUID}`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  'octo-delete-booking': {
    '200': async () => world.octo('DELETE', `/bookings/${(await reserved()).uuid}`),
    '400 INVALID_BOOKING_UUID': () => world.octo('DELETE', '/bookings/invalidUUID'),
  },
  'octo-confirm-booking': {
    '200': async () =>
      world.octo('POST', `/bookings/${(await reserved()).uuid}/confirm`, {
        resellerReference: 'VOUCHER-1',
        contact: { fullName: 'Ana Silva', emailAddress: 'ana@example.com' },
        unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'child' }],
      }),
    '400 INVALID_UNIT_ID': async () =>
      world.octo('POST', `/bookings/${(await reserved()).uuid}/confirm`, { unitItems: [{ unitId: 'invalidUnitId' }] }),
    '400 INVALID_BOOKING_UUID': () => world.octo('POST', '/bookings/invalidUUID/confirm', {}),
    '400 UNPROCESSABLE_ENTITY': async () => {
      const { uuid } = await reserved();
      await world.octo('DELETE', `/bookings/${uuid}`);
      return world.octo('POST', `/bookings/${uuid}/confirm`, {});
    },
    '400 BAD_REQUEST': async () => world.octo('POST', `/bookings/${(await reserved()).uuid}/confirm`, { contact: { notes: 5 } }),
    '413': () =>
      world.request('POST', `${OCTO}/bookings/${INVALID_UUID}/confirm`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  'octo-extend-booking': {
    '200': async () => world.octo('POST', `/bookings/${(await reserved()).uuid}/extend`, { expirationMinutes: 31 }),
    '400 INVALID_BOOKING_UUID': () => world.octo('POST', '/bookings/invalidUUID/extend', { expirationMinutes: 31 }),
    '400 UNPROCESSABLE_ENTITY': async () => world.octo('POST', `/bookings/${(await confirmed()).uuid}/extend`, {}),
    '400 BAD_REQUEST': async () => world.octo('POST', `/bookings/${(await reserved()).uuid}/extend`, { expirationMinutes: 0 }),
    '413': () =>
      world.request('POST', `${OCTO}/bookings/${INVALID_UUID}/extend`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  'octo-cancel-booking': {
    '200': async () => world.octo('POST', `/bookings/${(await confirmed()).uuid}/cancel`, { reason: 'Customer changed plans' }),
    '400 INVALID_BOOKING_UUID': () => world.octo('POST', '/bookings/invalidUUID/cancel', { reason: 'x' }),
    '400 BAD_REQUEST': () =>
      world.request('POST', `${OCTO}/bookings/${INVALID_UUID}/cancel`, {
        key: world.operator.key,
        rawBody: '{"reason":',
        headers: { 'Content-Type': 'application/json' },
      }),
    '413': () =>
      world.request('POST', `${OCTO}/bookings/${INVALID_UUID}/cancel`, {
        key: world.operator.key,
        rawBody: tooLarge,
        headers: { 'Content-Type': 'application/json' },
      }),
  },
  ...notificationCases(world, INVALID_UUID),
};

/** The gateway's 401 (no key) and 403 (a key without `ota`), for every OCTo route. */
for (const route of octoRoutes) {
  const path = route.path.replace('{productId}', 's_boat1').replace('{uuid}', INVALID_UUID).replace('{subscriptionId}', INVALID_UUID);
  const body = operations[route.id].request?.body ? {} : undefined;
  cases[route.id] = {
    ...cases[route.id],
    '401': () => world.request(route.method, path, { body }),
    '403': async () => world.request(route.method, path, { key: await world.operator.keyWith(['usage:read']), body }),
  };
}

const NOTIFICATION_ROUTES: string[] = octoRoutes.filter((route) => route.path.startsWith('/octo/notifications/')).map((route) => route.id);
const ECHOED: Record<string, string> = {
  INVALID_PRODUCT_ID: 'productId',
  INVALID_OPTION_ID: 'optionId',
  INVALID_UNIT_ID: 'unitId',
  INVALID_AVAILABILITY_ID: 'availabilityId',
  INVALID_BOOKING_UUID: 'uuid',
};

/**
 * OCTo's product as @octocloud/types 2.0.4 parses it. One deviation, on
 * purpose: its zod schema wants every option's availabilityLocalStartTimes
 * to hold a time, while the official validator warns when a day ticket
 * (OPENING_HOURS) lists any; the validator's rule is followed.
 */
function parseProduct(product: any): void {
  const dayTicket = product.availabilityType === 'OPENING_HOURS';
  if (dayTicket) expect(product.options.every((option: any) => option.availabilityLocalStartTimes.length === 0)).toBe(true);
  zProduct.parse(
    dayTicket
      ? { ...product, options: product.options.map((option: any) => ({ ...option, availabilityLocalStartTimes: ['00:00'] })) }
      : product,
  );
}

test('every OCTo route has its 200, 401 and 403 here, a 413 when it takes a body, and its 400s by OCTo error code', () => {
  expect(Object.keys(cases).sort()).toEqual(octoRoutes.map((route) => route.id).sort());
  for (const route of octoRoutes) {
    const statuses = [...new Set(Object.keys(cases[route.id]).map((name) => Number(name.split(' ')[0])))].sort();
    const documented = Object.keys(document.paths[route.path][route.method.toLowerCase()].responses)
      .map(Number)
      .filter((status) => ![429, 500, 504].includes(status));
    // A route without an ID to refuse (supplier, products) has no 400 a client can provoke.
    expect({ route: route.id, statuses }).toEqual({
      route: route.id,
      statuses: documented.filter((status) => status !== 400 || Object.keys(cases[route.id]).some((name) => name.startsWith('400'))).sort(),
    });
  }
  // Every OCTo route but the notifications capability's has OCTo's own type of its answer.
  expect(
    octoRoutes
      .filter((route) => !octoTypes[route.id] && !['octo-list-products', 'octo-get-product'].includes(route.id))
      .map((route) => route.id),
  ).toEqual(NOTIFICATION_ROUTES);
  // Every OCTo error code a client can provoke is provoked on some route.
  const codes = new Set(Object.values(cases).flatMap((byName) => Object.keys(byName).map((name) => name.split(' ')[1])));
  for (const code of Object.keys(errorTypes)) expect(codes).toContain(code);
});

describe.each(octoRoutes.map((route: Route) => ({ id: route.id, route })))('$id', ({ route }) => {
  test.each(Object.keys(cases[route.id]).map((name) => ({ name })))(
    'answers $name as documented and as OCTo types it',
    async ({ name }) => {
      const [statusText, code] = name.split(' ');
      const status = Number(statusText);
      const response = await cases[route.id][name]();
      expect({ status: response.status, body: response.json }).toMatchObject({ status, ...(code ? { body: { error: code } } : {}) });
      const documented = documentedResponse(document, route, status);
      if (!documented || 'empty' in documented) throw new Error(`${route.id} ${status} is not documented with a body`);
      const contentType = response.headers.get('content-type') as string;
      // A 500 is documented in both shapes; every other status in one.
      expect(contentType).toBe(documented.contentType);
      expect(errorsOf(documented.segments, response.json)).toEqual([]);
      if (status === 200) {
        expect(response.headers.get('octo-capabilities')).toBe('octo/pricing');
        if (route.id === 'octo-list-products' || route.id === 'octo-get-product') [response.json].flat().forEach(parseProduct);
        // @octocloud/types has no notifications capability: its routes are held to the document alone (above).
        else if (!NOTIFICATION_ROUTES.includes(route.id)) octoTypes[route.id].parse(response.json);
      } else if (code) {
        errorTypes[code].parse(response.json);
        expect(response.json.errorMessage.length).toBeGreaterThan(0);
        if (ECHOED[code]) expect(typeof response.json[ECHOED[code]]).toBe('string');
      } else {
        // The gateway's refusals: a problem, and OCTo's fields beside it.
        expect(response.json).toMatchObject({ status, instance: expect.stringMatching(/^\/octo\//), error: expect.any(String) });
        expect(response.json.errorMessage).toBe(response.json.detail);
      }
    },
  );
});

describe("the gateway's refusals carry both shapes, on every route, but for an unknown route", () => {
  test('401 and 403 answer a problem with OCTo error and errorMessage, under /octo and elsewhere alike; an unknown route a plain not-found', async () => {
    for (const path of [`${OCTO}/products`, '/api/v2/ota/marketplace/products']) {
      const unauthorized = await world.request('GET', path);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('content-type')).toBe('application/problem+json');
      expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
      expect(unauthorized.json).toEqual({
        type: `${config().problemBaseUrl}/unauthorized`,
        title: 'Unauthorized',
        status: 401,
        detail: 'A valid API key is required, sent as Authorization: Bearer <key>',
        instance: path,
        error: 'UNAUTHORIZED',
        errorMessage: 'A valid API key is required, sent as Authorization: Bearer <key>',
      });
      const forbidden = await world.request('GET', path, { key: await world.operator.keyWith(['usage:write']) });
      expect(forbidden.json).toMatchObject({ status: 403, error: 'FORBIDDEN', errorMessage: forbidden.json.detail });
    }
    // An unknown route, under /octo or elsewhere, is no OCTo request: a not-found problem without OCTo's members.
    for (const path of [`${OCTO}/capabilities/nothing`, '/api/v2/nothing']) {
      const unknown = await world.request('GET', path, { key: world.operator.key });
      expect(unknown.json).toEqual({
        type: `${config().problemBaseUrl}/not-found`,
        title: 'Not Found',
        status: 404,
        detail: 'No route matches this method and path',
        instance: path,
      });
      expect(errorsOf(['components', 'schemas', 'Problem'], unknown.json)).toEqual([]);
    }
  });
});
