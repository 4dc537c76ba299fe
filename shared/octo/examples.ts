import type { BookingItem } from '../booking/model';
import type { TimeslotItem } from '../catalog/model';
import { booking, product } from '../api/examples';
import { octoSubscription } from './notifications';
import { octoAvailability, octoBooking, octoCalendar, octoProduct, octoSupplier, type ShopfrontProduct } from './render';

/**
 * The OCTo answers the OpenAPI document shows, rendered by the code that
 * answers them from the same story as the marketplace's examples (the demo
 * kayak tour and a booking of it), so they cannot drift from real answers.
 */
const TIME_ZONE = 'Europe/Lisbon';
const kayak: ShopfrontProduct = {
  ...product,
  NameLower: product.Name.toLowerCase(),
  Visible: true,
  AvailabilityType: 'START_TIME',
  StartTimes: ['10:00', '17:30'],
  Units: [
    { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 4500, Currency: 'EUR' }, MinAge: 18, MaxAge: 99 },
    { UnitID: 'child', Name: 'Child', Type: 'CHILD', Price: { Amount: 2250, Currency: 'EUR' }, MinAge: 8, MaxAge: 17 },
  ],
};
const slot: TimeslotItem = { Date: booking.Date, Time: booking.Time, Capacity: 12, Booked: 3, Vacancies: 9 };
const reservation: BookingItem = {
  ...booking,
  OperatorID: 'demo',
  Status: 'CONFIRMED',
  Channel: 'ota',
  WaiverStatus: 'COMPLETE',
  UUID: '0b6a1f43-5d3e-4c1a-9a7e-2f1d4c8b9e10',
  Units: [
    { UnitID: 'adult', Quantity: 1, UnitPrice: { Amount: 4500, Currency: 'EUR' } },
    { UnitID: 'child', Quantity: 1, UnitPrice: { Amount: 2250, Currency: 'EUR' } },
  ],
  UnitItems: [
    { UUID: '4f0c1e2a-8b7d-4e61-9c3a-5d2b1a0f9e81', UnitID: 'adult' },
    { UUID: '9d8e7f6a-1b2c-4d3e-8f4a-5b6c7d8e9f01', UnitID: 'child' },
  ],
  TotalPrice: { Amount: 6750, Currency: 'EUR' },
  Contact: { FullName: 'Ana Silva', FirstName: 'Ana', LastName: 'Silva', EmailAddress: 'ana@example.com', Locales: ['en'] },
  ResellerReference: 'VOUCHER-8841',
  HoldExpiresAt: '2026-06-20T09:30:02.123Z',
  ConfirmedAt: '2026-06-20T09:21:40.002Z',
  UpdatedAt: '2026-06-20T09:21:40.002Z',
  EndsAt: '2026-07-01T12:00:00+01:00',
  Version: 2,
};

const options = { timeZone: TIME_ZONE, withPricing: true };
const before = new Date('2026-06-20T09:21:41Z');

export const octoExamples: Record<string, unknown> = {
  OctoSupplier: octoSupplier({ OperatorID: 'demo', Name: 'Atlantic Coast Adventures' }, 'https://api.example.com/v1/octo'),
  OctoProduct: octoProduct(kayak, TIME_ZONE, true),
  OctoCalendarDay: octoCalendar([slot], kayak, options)[0],
  OctoAvailability: octoAvailability(slot, kayak, options),
  OctoBooking: octoBooking({ item: reservation, slot }, { ...options, now: before }),
  OctoSubscription: octoSubscription({
    SubscriptionID: '5c7d6dbb-cd4c-48fd-9709-0ebaa14d7a00',
    OperatorID: 'demo',
    KeyID: 'key_Xq3vN8aPz2Lm',
    Url: 'https://reseller.example.com/octo/notifications',
    NotificationTypes: ['AVAILABILITY_UPDATE', 'BOOKING_UPDATE'],
    Headers: { 'Api-Key': 'your-receiver-secret' },
    CreatedAt: '2026-06-01T08:00:00.000Z',
    UpdatedAt: '2026-06-01T08:00:00.000Z',
  }),
};
