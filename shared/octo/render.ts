import { timeslotStatus, vacanciesOf } from '../catalog/availability';
import { DEFAULT_OPTION_ID, TIME_PATTERN } from '../catalog/constants';
import type { ProductItem, TimeslotItem } from '../catalog/model';
import type { OpeningHours } from '../catalog/schemas';
import { closesAt, slotEnd, slotStart, timeslotStarted } from '../catalog/timeslot-start';
import { unitsOf } from '../catalog/units';
import { isLive } from '../booking/lifecycle';
import type { BookingItem } from '../booking/model';
import type { Contact as StoredContact } from '../booking/schemas';
import type { Money } from '../catalog/schemas';
import { isSupportedDay, zonedIsoAsWritten } from '../core/calendar';
import type { Availability, Booking, CalendarDay, Contact, Pricing, Product, Supplier, UnitPricing } from './schemas/answers';

/**
 * Records in OCTo's shapes: products with their one option and units,
 * timeslots as availabilities (and days of them as a calendar), bookings
 * with their unit items, contact, voucher and prices. Only mapping: every
 * rule (which timeslots are open, what a party costs) is the domain's.
 */

export type ShopfrontProduct = Omit<ProductItem, 'Questions'>;

const timePattern = new RegExp(TIME_PATTERN);

/** OCTo's UTC instants are to the second: `2026-07-01T09:00:00Z`. */
export const utcSeconds = (iso: string): string => `${iso.slice(0, 19)}Z`;

/**
 * Availability IDs are the local start with its offset (`2026-07-01T10:00:00+01:00`), OCTo's convention: the timeslot's
 * date and time as stored (a day ticket's at 00:00), with the offset that makes the ID name its start instant.
 */
export const availabilityIdOf = (slot: { Date: string; Time: string }, timeZone: string): string =>
  zonedIsoAsWritten(slot.Date, slot.Time, timeZone);

/** The timeslot an availability ID names, when it is one of ours (the offset must be that of the date in the zone). */
export function slotOfAvailabilityId(id: string, timeZone: string): { Date: string; Time: string } | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):00(?:[+-]\d{2}:\d{2}|Z)$/.exec(id);
  if (!match || !isSupportedDay(match[1]) || !timePattern.test(match[2])) return undefined;
  const slot = { Date: match[1], Time: match[2] };
  return availabilityIdOf(slot, timeZone) === id.replace(/Z$/, '+00:00') ? slot : undefined;
}

const precisions = new Map<string, number>();

/** ISO 4217 minor digits of a currency (EUR 2, JPY 0). */
function currencyPrecision(currency: string): number {
  let precision = precisions.get(currency);
  if (precision === undefined) {
    precision = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    precisions.set(currency, precision);
  }
  return precision;
}

/** OCTo's price of an amount: no net rates and no tax data in the catalogue, and no strike-through price. */
export const pricing = (money: Money): Pricing => ({
  original: money.Amount,
  retail: money.Amount,
  net: null,
  currency: money.Currency,
  currencyPrecision: currencyPrecision(money.Currency),
  includedTaxes: [],
});

const unitPricing = (product: Pick<ProductItem, 'Units' | 'PricePerParticipant'>): UnitPricing[] =>
  unitsOf(product).map((unit) => ({ ...pricing(unit.Price), unitId: unit.UnitID }));

export function octoSupplier(operator: { OperatorID: string; Name: string }, endpoint: string): Supplier {
  return {
    id: operator.OperatorID,
    name: operator.Name,
    endpoint,
    contact: { website: null, email: null, telephone: null, address: null },
  };
}

/** A product OCTo can express: a day ticket, or a product with at least one start time. */
export const hasOctoAvailability = (product: ShopfrontProduct): boolean =>
  product.AvailabilityType === 'OPENING_HOURS' || (product.StartTimes?.length ?? 0) > 0;

export function octoProduct(product: ShopfrontProduct, timeZone: string, withPricing: boolean): Product {
  const dayTicket = product.AvailabilityType === 'OPENING_HOURS';
  const units = unitsOf(product);
  const cheapest = units.reduce((low, unit) => (unit.Price.Amount < low.Price.Amount ? unit : low));
  return {
    id: product.ActivityID,
    internalName: product.Name,
    reference: String(product.ProductID),
    locale: 'en',
    timeZone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: dayTicket ? 'OPENING_HOURS' : 'START_TIME',
    deliveryFormats: ['QRCODE'],
    deliveryMethods: ['VOUCHER'],
    redemptionMethod: 'MANIFEST',
    options: [
      {
        id: DEFAULT_OPTION_ID,
        default: true,
        internalName: 'Default',
        reference: null,
        availabilityLocalStartTimes: dayTicket ? [] : (product.StartTimes ?? []),
        // A reseller may cancel until the start (a day ticket: until closing), as the marketplace's partners may.
        cancellationCutoff: '0 minutes',
        cancellationCutoffAmount: 0,
        cancellationCutoffUnit: 'minute',
        requiredContactFields: [],
        restrictions: { minUnits: 1, maxUnits: product.MaxParticipantsPerBooking },
        units: units.map((unit) => ({
          id: unit.UnitID,
          internalName: unit.Name,
          reference: null,
          type: unit.Type,
          requiredContactFields: [],
          restrictions: {
            minAge: unit.MinAge,
            maxAge: unit.MaxAge,
            idRequired: false,
            minQuantity: unit.MinQuantity ?? null,
            maxQuantity: unit.MaxQuantity ?? null,
            paxCount: unit.PaxCount,
            accompaniedBy: unit.AccompaniedBy,
          },
          ...(withPricing ? { pricingFrom: [pricing(unit.Price)] } : {}),
        })),
        ...(withPricing ? { pricingFrom: [pricing(cheapest.Price)] } : {}),
      },
    ],
    ...(withPricing
      ? {
          defaultCurrency: product.PricePerParticipant.Currency,
          availableCurrencies: [product.PricePerParticipant.Currency],
          pricingPer: 'UNIT' as const,
        }
      : {}),
  };
}

const hours = (openingHours: OpeningHours | undefined) => (openingHours ?? []).map((range) => ({ from: range.From, to: range.To }));

export interface AvailabilityOptions {
  timeZone: string;
  withPricing: boolean;
  /** Places the request wants (its `units`): available only where that many are left. */
  places?: number;
}

/** A timeslot as an OCTo availability of a product. */
export const octoAvailability = (slot: TimeslotItem, product: ShopfrontProduct, options: AvailabilityOptions): Availability => ({
  ...availabilityOf(slot, slotEnd(slot, product.DurationMinutes, options.timeZone), options),
  ...(options.withPricing ? { unitPricing: unitPricing(product) } : {}),
});

/** A timeslot as an OCTo availability that ends at `end`, without prices. */
function availabilityOf(slot: TimeslotItem, end: string, options: AvailabilityOptions): Availability {
  const id = availabilityIdOf(slot, options.timeZone);
  const vacancies = vacanciesOf(slot);
  const status = timeslotStatus(slot, options.places);
  const available = status === 'AVAILABLE' || status === 'LIMITED';
  return {
    id,
    localDateTimeStart: slotStart(slot, options.timeZone),
    localDateTimeEnd: end,
    utcCutoffAt: utcSeconds(closesAt(slot, options.timeZone).toISOString()),
    allDay: slot.OpeningHours !== undefined,
    available,
    status,
    vacancies,
    capacity: slot.Capacity,
    maxUnits: null,
    openingHours: hours(slot.OpeningHours),
  };
}

/** The days of some open timeslots as OCTo's calendar: per day its best availability (the most places left). */
export function octoCalendar(slots: TimeslotItem[], product: ShopfrontProduct, options: AvailabilityOptions): CalendarDay[] {
  const days = new Map<string, TimeslotItem[]>();
  for (const slot of slots) days.set(slot.Date, [...(days.get(slot.Date) ?? []), slot]);
  return [...days].map(([date, daySlots]) => {
    const best = daySlots.reduce((most, slot) => (vacanciesOf(slot) > vacanciesOf(most) ? slot : most));
    const day = availabilityOf(best, '', options);
    return {
      localDate: date,
      available: day.available,
      status: day.status,
      vacancies: day.vacancies,
      capacity: day.capacity,
      openingHours: day.openingHours,
      ...(options.withPricing ? { unitPricingFrom: unitPricing(product) } : {}),
    };
  });
}

/** A stored contact in OCTo's shape: every field present, null when unknown. */
export function octoContact(contact: StoredContact | undefined): Contact {
  return {
    fullName: contact?.FullName ?? null,
    firstName: contact?.FirstName ?? null,
    lastName: contact?.LastName ?? null,
    emailAddress: contact?.EmailAddress ?? null,
    phoneNumber: contact?.PhoneNumber ?? null,
    locales: contact?.Locales ?? [],
    postalCode: contact?.PostalCode ?? null,
    country: contact?.Country ?? null,
    notes: contact?.Notes ?? null,
  };
}

/** A contact OCTo sent, in the domain's field names (null clears a field held before). */
export function fromContact(contact: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!contact) return undefined;
  const names: Record<string, string> = {
    fullName: 'FullName',
    firstName: 'FirstName',
    lastName: 'LastName',
    emailAddress: 'EmailAddress',
    phoneNumber: 'PhoneNumber',
    locales: 'Locales',
    postalCode: 'PostalCode',
    country: 'Country',
    notes: 'Notes',
  };
  return Object.fromEntries(Object.entries(contact).flatMap(([name, value]) => (names[name] ? [[names[name], value]] : [])));
}

const EXPIRY_REASON = 'The reservation expired before it was confirmed';

export interface BookingView {
  item: BookingItem;
  /** The booking's timeslot with its counters, as read by the request. */
  slot?: TimeslotItem;
}

/** A UUID booking as OCTo's Booking, its prices the sum of its unit items (with octo/pricing). */
export function octoBooking({ item, slot }: BookingView, options: { timeZone: string; withPricing: boolean; now: Date }): Booking {
  const { timeZone, withPricing, now } = options;
  const status = item.Status;
  const cancellable = isLive(item) && !timeslotStarted(item, timeZone, now);
  const prices = new Map((item.Units ?? []).map((unit) => [unit.UnitID, unit.UnitPrice]));
  const itemPrice = (unitId: string): Money => prices.get(unitId) ?? { Amount: 0, Currency: item.TotalPrice.Currency };
  const timeslot: TimeslotItem = slot ?? {
    Date: item.Date,
    Time: item.Time,
    Capacity: 0,
    Booked: 0,
    Vacancies: 0,
    ...(item.OpeningHours ? { OpeningHours: item.OpeningHours } : {}),
  };
  const availabilityId = availabilityIdOf(item, timeZone);
  const closedAt = utcSeconds((item.CancelledAt ?? item.ExpiredAt ?? item.UpdatedAt ?? item.CreatedAt) as string);
  return {
    id: item.BookingReference,
    uuid: item.UUID as string,
    testMode: false,
    resellerReference: item.ResellerReference ?? null,
    supplierReference: item.BookingReference,
    status,
    utcCreatedAt: utcSeconds(item.CreatedAt),
    utcUpdatedAt: utcSeconds(item.UpdatedAt ?? item.CreatedAt),
    utcExpiresAt: (status === 'ON_HOLD' || status === 'EXPIRED') && item.HoldExpiresAt ? utcSeconds(item.HoldExpiresAt) : null,
    utcRedeemedAt: null,
    utcConfirmedAt: item.ConfirmedAt ? utcSeconds(item.ConfirmedAt) : null,
    productId: item.ActivityID,
    optionId: DEFAULT_OPTION_ID,
    cancellable,
    cancellation:
      status === 'CANCELLED'
        ? { refund: 'FULL', reason: item.CancellationReason ?? null, utcCancelledAt: closedAt }
        : status === 'EXPIRED'
          ? { refund: 'FULL', reason: EXPIRY_REASON, utcCancelledAt: closedAt }
          : null,
    freesale: false,
    availabilityId,
    availability: availabilityOf(timeslot, item.EndsAt ?? slotStart(item, timeZone), { timeZone, withPricing: false }),
    contact: octoContact(item.Contact),
    notes: item.Notes ?? null,
    deliveryMethods: ['VOUCHER'],
    voucher: {
      redemptionMethod: 'MANIFEST',
      utcRedeemedAt: null,
      deliveryOptions: status === 'CONFIRMED' ? [{ deliveryFormat: 'QRCODE', deliveryValue: item.BookingReference }] : [],
    },
    unitItems: (item.UnitItems ?? []).map((unitItem) => ({
      uuid: unitItem.UUID,
      resellerReference: null,
      supplierReference: item.BookingReference,
      unitId: unitItem.UnitID,
      status,
      utcRedeemedAt: null,
      contact: octoContact(undefined),
      ticket: null,
      ...(withPricing ? { pricing: pricing(itemPrice(unitItem.UnitID)) } : {}),
    })),
    ...(withPricing ? { pricing: pricing(item.TotalPrice) } : {}),
  };
}
