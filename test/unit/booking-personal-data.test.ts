import { dueEntry } from '../../shared/booking/booking-indexes';
import type { BookingItem } from '../../shared/booking/model';
import { customerEmail, emailHash, holdsPersonalData, scrubbedRecord, withoutPersonalData } from '../../shared/booking/personal-data';
import { toBooking } from '../../shared/booking/model';
import { DEFAULT_RETENTION_DAYS, parseRetentionDays } from '../../shared/booking/retention';

/** A booking's personal data, decided with no I/O: what an erasure removes and keeps, and when retention makes it due. */

const booking = {
  OperatorID: 'demo',
  BookingReference: 'K5DDMJMXFQ',
  Status: 'CONFIRMED',
  Channel: 'ota',
  PartnerKeyID: 'key_a',
  PaymentReference: 'pay_8841',
  ActivityID: 's_kayak01',
  ProductID: 1001,
  ActivityName: 'Sunset Kayak Tour',
  Date: '2026-07-01',
  Time: '10:00',
  StartsAt: '2026-07-01T10:00:00+01:00',
  EndsAt: '2026-07-01T12:00:00+01:00',
  Participants: 2,
  TotalPrice: { Amount: 9000, Currency: 'EUR' },
  Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'Ana@Example.com', Phone: '+351912345678' },
  WaiverStatus: 'COMPLETE',
  Answers: [{ QuestionID: 'q_swim', Value: 'YES' }],
  Contact: { FullName: 'Ana Silva', EmailAddress: 'ana@example.com', Notes: 'window seat' },
  Notes: 'Vegetarian',
  UUID: '0b6a1f43-5d3e-4c1a-9a7e-2f1d4c8b9e10',
  RequestHash: 'f'.repeat(64),
  CreatedAt: '2026-06-20T09:15:02.123Z',
  Version: 3,
} as BookingItem;

describe('erasing a booking', () => {
  test("removes its customer, answers, contact, notes and the request's hash, and keeps everything the accounts need", () => {
    const erased = withoutPersonalData(booking, '2026-07-02T10:00:00.000Z', 'operator');
    const { Customer, Answers, Contact, Notes, RequestHash, ...kept } = booking;
    expect([Customer, Answers, Contact, Notes, RequestHash].every(Boolean)).toBe(true);
    expect(erased).toEqual({ ...kept, ErasedAt: '2026-07-02T10:00:00.000Z', ErasedBy: 'operator' });
    expect(holdsPersonalData(erased)).toBe(false);
    expect(holdsPersonalData(booking)).toBe(true);
  });

  test('a record an answer or an event carried loses its customer and answers alike', () => {
    const record = toBooking(booking);
    const { Customer: _customer, Answers: _answers, ...kept } = record;
    expect(scrubbedRecord(record, '2026-07-02T10:00:00.000Z')).toEqual({ ...kept, ErasedAt: '2026-07-02T10:00:00.000Z' });
  });
});

describe("a customer's email", () => {
  test("is its Customer's, or an OCTo contact's that made no Customer", () => {
    expect(customerEmail(booking)).toBe('Ana@Example.com');
    expect(customerEmail({ Contact: { EmailAddress: 'bo@example.com' } })).toBe('bo@example.com');
    expect(customerEmail({})).toBeUndefined();
  });

  test('is one customer whatever its case and surrounding spaces', () => {
    expect(emailHash(' Ana@Example.COM ')).toBe(emailHash('ana@example.com'));
    expect(emailHash('ana@example.com')).toMatch(/^[0-9a-f]{64}$/);
    expect(emailHash('ana@example.com')).not.toBe(emailHash('ana@example.org'));
  });
});

describe("a booking's entry on the due index", () => {
  test('is its expiry while held, the end of its activity (UTC) while it holds personal data, and none after erasure', () => {
    expect(dueEntry({ ...booking, Status: 'ON_HOLD', HoldExpiresAt: '2026-06-20T09:30:00.000Z' })).toEqual({
      GSI3PK: 'DUE#HOLD',
      GSI3SK: '2026-06-20T09:30:00.000Z#demo#K5DDMJMXFQ',
    });
    expect(dueEntry(booking)).toEqual({ GSI3PK: 'DUE#RETENTION', GSI3SK: '2026-07-01T11:00:00.000Z#demo#K5DDMJMXFQ' });
    expect(dueEntry(withoutPersonalData(booking, '2026-07-02T10:00:00.000Z', 'retention'))).toBeUndefined();
  });
});

describe('the retention period', () => {
  test(`is ${DEFAULT_RETENTION_DAYS} days unless set, and a setting is a whole number of days from 1 to 36500`, () => {
    expect(parseRetentionDays('730')).toBe(730);
    for (const bad of ['0', '-1', '1.5', '36501', 'a year', '']) {
      expect(() => parseRetentionDays(bad)).toThrow(
        `PERSONAL_DATA_RETENTION_DAYS must be a whole number of days from 1 to 36500, not '${bad}'`,
      );
    }
  });
});
