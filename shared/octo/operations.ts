import type { APIGatewayProxyResult } from 'aws-lambda';
import { requireOperator } from '../accounts/operators';
import type { RequestOf } from '../api/operations';
import type { RouteId } from '../api/routes';
import { listReservations } from '../booking/reservation-list';
import {
  cancelReservation,
  changeReservation,
  confirmReservation,
  extendReservation,
  readReservation,
  reserve,
  type ReservationState,
} from '../booking/reservations';
import type { RequestedUnitItem } from '../booking/unit-items';
import { namedTimeslots, openTimeslots } from '../catalog/availability';
import type { ProductItem } from '../catalog/model';
import { activityNotFound, requireActivity, shopfrontItems } from '../catalog/products';
import { paxOf, requireOption } from '../catalog/units';
import { config } from '../core/config';
import { InvalidRequestError, ValidationError } from '../core/errors';
import { requestHash } from '../core/idempotency';
import type { HttpRequest } from '../http/handler';
import { octoOk, requestedCapabilities } from './face';
import {
  fromContact,
  hasOctoAvailability,
  slotOfAvailabilityId,
  octoAvailability,
  octoBooking,
  octoCalendar,
  octoProduct,
  octoSupplier,
  type ShopfrontProduct,
} from './render';

/**
 * The OCTo routes: each reads an OCTo request, calls the domain, and answers
 * in OCTo's shape. Rules live in the domain; here is only translation.
 */

type Request<Id extends RouteId> = HttpRequest<RequestOf<Id>>;
/** What every OCTo request carries, whatever its route. */
type AnyRequest = Pick<HttpRequest<{ path: unknown; query: unknown; body: unknown }>, 'caller' | 'headers'>;

type Headed = { headers: Record<string, string | undefined> };
const answer = (request: Headed, body: unknown) => octoOk(body, requestedCapabilities(request.headers));
const pricingOn = (request: Headed) => requestedCapabilities(request.headers).includes('octo/pricing');

/** The OCTo base URL the request was sent to: scheme, host and the path before the route (a stage, a custom domain's base path). */
function endpointOf(request: Request<'octo-get-supplier'>): string {
  const { event, headers } = request;
  const path = event.requestContext?.path ?? event.path;
  const base = path.slice(0, path.length - '/supplier'.length);
  return `${headers['x-forwarded-proto'] ?? 'http'}://${headers.host ?? 'localhost'}${base}`;
}

export async function octoGetSupplier(request: Request<'octo-get-supplier'>): Promise<APIGatewayProxyResult> {
  const operator = await requireOperator(request.caller.operatorId);
  return answer(request, octoSupplier(operator, endpointOf(request)));
}

export async function octoListProducts(request: Request<'octo-list-products'>): Promise<APIGatewayProxyResult> {
  const products = (await shopfrontItems(request.caller)).filter(hasOctoAvailability);
  return answer(
    request,
    products.map((product) => octoProduct(product, request.caller.timeZone, pricingOn(request))),
  );
}

/** A product of the OCTo list: visible, with start times or opening hours. */
async function requireOctoProduct(request: AnyRequest, productId: string): Promise<ProductItem> {
  const product = await requireActivity(request.caller, productId);
  if (!hasOctoAvailability(product)) throw activityNotFound(productId);
  return product;
}

export async function octoGetProduct(request: Request<'octo-get-product'>): Promise<APIGatewayProxyResult> {
  const product = await requireOctoProduct(request, request.path.productId);
  return answer(request, octoProduct(product, request.caller.timeZone, pricingOn(request)));
}

/** The product's option, the request's currency (with pricing: the product's own), and the places its `units` take. */
function checkSelection(request: Headed, body: { optionId: string; currency?: string | null; units?: { id: string; quantity: number }[] }) {
  return (product: ShopfrontProduct): void => {
    requireOption(body.optionId);
    if (pricingOn(request) && body.currency && body.currency !== product.PricePerParticipant.Currency) {
      throw new ValidationError(`must be ${product.PricePerParticipant.Currency}, the product's currency`, { field: 'currency' });
    }
  };
}

const placesOf = (product: ShopfrontProduct, units: { id: string; quantity: number }[] | undefined) =>
  units
    ? paxOf(
        product,
        units.map((unit) => ({ UnitID: unit.id, Quantity: unit.quantity })),
      )
    : undefined;

export async function octoAvailabilityCalendar(request: Request<'octo-availability-calendar'>): Promise<APIGatewayProxyResult> {
  const { body, caller } = request;
  const { product, slots } = await openTimeslots(
    caller,
    body.productId,
    { from: body.localDateStart, to: body.localDateEnd, names: ['localDateStart', 'localDateEnd'] },
    { check: checkSelection(request, body) },
  );
  const options = { timeZone: caller.timeZone, withPricing: pricingOn(request), places: placesOf(product, body.units) };
  return answer(request, octoCalendar(slots, product, options));
}

export async function octoCheckAvailability(request: Request<'octo-check-availability'>): Promise<APIGatewayProxyResult> {
  const { body, caller } = request;
  const forms = [
    body.localDate !== undefined,
    body.localDateStart !== undefined || body.localDateEnd !== undefined,
    body.availabilityIds !== undefined,
  ];
  if (forms.filter(Boolean).length !== 1) {
    throw new InvalidRequestError('Give exactly one of: localDate; localDateStart with localDateEnd; availabilityIds');
  }
  const check = checkSelection(request, body);
  let found;
  if (body.availabilityIds) {
    const wanted = body.availabilityIds.map((id) => ({ id, slot: slotOfAvailabilityId(id, caller.timeZone) }));
    found = await namedTimeslots(caller, body.productId, wanted, { check });
  } else {
    const from = body.localDate ?? body.localDateStart;
    const to = body.localDate ?? body.localDateEnd;
    if (from === undefined) throw new ValidationError('is required with localDateEnd', { field: 'localDateStart' });
    if (to === undefined) throw new ValidationError('is required with localDateStart', { field: 'localDateEnd' });
    found = await openTimeslots(caller, body.productId, { from, to, names: ['localDateStart', 'localDateEnd'] }, { check });
  }
  const options = { timeZone: caller.timeZone, withPricing: pricingOn(request), places: placesOf(found.product, body.units) };
  return answer(
    request,
    found.slots.map((slot) => octoAvailability(slot, found.product, options)),
  );
}

const bookingAnswer = (request: AnyRequest, state: ReservationState) =>
  answer(request, octoBooking(state, { timeZone: request.caller.timeZone, withPricing: pricingOn(request), now: config().clock() }));

type SentUnitItems = { unitId: string; uuid?: string }[] | undefined;
const unitItemsOf = (items: SentUnitItems): RequestedUnitItem[] | undefined =>
  items?.map((item) => ({ UnitID: item.unitId, ...(item.uuid ? { UUID: item.uuid } : {}) }));

export async function octoReserveBooking(request: Request<'octo-reserve-booking'>): Promise<APIGatewayProxyResult> {
  const { body, caller } = request;
  const state = await reserve(caller, {
    uuid: body.uuid,
    // The uuid in any case is the same uuid, so the same request.
    requestHash: requestHash({ ...body, uuid: body.uuid?.toLowerCase() }),
    activityId: body.productId,
    optionId: body.optionId,
    slot: slotOfAvailabilityId(body.availabilityId, caller.timeZone),
    unitItems: unitItemsOf(body.unitItems),
    holdMinutes: body.expirationMinutes,
    contact: fromContact(body.contact),
    notes: body.notes,
    resellerReference: body.resellerReference,
  });
  return bookingAnswer(request, state);
}

export async function octoConfirmBooking(request: Request<'octo-confirm-booking'>): Promise<APIGatewayProxyResult> {
  const { body, caller, path } = request;
  const state = await confirmReservation(caller, path.uuid, {
    contact: fromContact(body.contact),
    resellerReference: body.resellerReference,
    unitItems: unitItemsOf(body.unitItems),
  });
  return bookingAnswer(request, state);
}

export async function octoExtendBooking(request: Request<'octo-extend-booking'>): Promise<APIGatewayProxyResult> {
  return bookingAnswer(request, await extendReservation(request.caller, request.path.uuid, request.body.expirationMinutes));
}

export async function octoUpdateBooking(request: Request<'octo-update-booking'>): Promise<APIGatewayProxyResult> {
  const { body, caller, path } = request;
  const state = await changeReservation(caller, path.uuid, {
    activityId: body.productId,
    optionId: body.optionId,
    ...(body.availabilityId === undefined ? {} : { slot: { value: slotOfAvailabilityId(body.availabilityId, caller.timeZone) } }),
    unitItems: unitItemsOf(body.unitItems),
    contact: fromContact(body.contact),
    notes: body.notes,
    resellerReference: body.resellerReference,
    holdMinutes: body.expirationMinutes,
  });
  return bookingAnswer(request, state);
}

export async function octoCancelBooking(request: Request<'octo-cancel-booking'>): Promise<APIGatewayProxyResult> {
  const reason = request.body.reason?.trim() || undefined;
  return bookingAnswer(request, await cancelReservation(request.caller, request.path.uuid, reason));
}

export async function octoDeleteBooking(request: Request<'octo-delete-booking'>): Promise<APIGatewayProxyResult> {
  return bookingAnswer(request, await cancelReservation(request.caller, request.path.uuid, undefined));
}

export async function octoGetBooking(request: Request<'octo-get-booking'>): Promise<APIGatewayProxyResult> {
  return bookingAnswer(request, await readReservation(request.caller, request.path.uuid));
}

export async function octoListBookings(request: Request<'octo-list-bookings'>): Promise<APIGatewayProxyResult> {
  const { query, caller } = request;
  if (query.localDate !== undefined && (query.localDateStart !== undefined || query.localDateEnd !== undefined)) {
    throw new InvalidRequestError('Give localDate, or localDateStart with localDateEnd, not both');
  }
  if ((query.localDateStart === undefined) !== (query.localDateEnd === undefined)) {
    throw new InvalidRequestError('Give localDateStart and localDateEnd together');
  }
  if (query.productId !== undefined) await requireActivity(caller, query.productId);
  if (query.optionId !== undefined) requireOption(query.optionId);
  const from = query.localDate ?? query.localDateStart;
  const to = query.localDate ?? query.localDateEnd;
  const states = await listReservations(caller, {
    reference: query.supplierReference,
    resellerReference: query.resellerReference,
    ...(from !== undefined && to !== undefined ? { days: { from, to } } : {}),
    activityId: query.productId,
  });
  const options = { timeZone: caller.timeZone, withPricing: pricingOn(request), now: config().clock() };
  return answer(
    request,
    states.map((state) => octoBooking(state, options)),
  );
}
