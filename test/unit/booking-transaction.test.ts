import { bookingTransaction, cancellationTransaction } from '../../shared/booking/booking-writes';
import type { BookingItem } from '../../shared/booking/model';

const booking: BookingItem = {
  OperatorID: 'op-1',
  BookingReference: 'ABCDEFGH23',
  Status: 'CONFIRMED',
  Channel: 'ota',
  PartnerKeyID: 'key_1',
  ActivityID: 's_walk1',
  ProductID: 501,
  ActivityName: 'Walk',
  Date: '2026-12-01',
  Time: '09:00',
  StartsAt: '2026-12-01T09:00:00+00:00',
  Participants: 3,
  TotalPrice: { Amount: 6000, Currency: 'EUR' },
  Customer: { FirstName: 'A', LastName: 'B', Email: 'a@b.co' },
  WaiverStatus: 'PENDING',
  CreatedAt: '2026-11-22T10:00:00.000Z',
};

describe('booking transactions', () => {
  it('take the places with a condition that the timeslot exists and has room for the party', () => {
    const [slot, put] = bookingTransaction({ booking }).TransactItems ?? [];
    expect(slot.Update).toMatchObject({
      Key: { PK: 'OP#op-1#ACT#s_walk1', SK: 'SLOT#2026-12-01#09:00' },
      UpdateExpression: 'SET Booked = Booked + :participants, Vacancies = Vacancies - :participants',
      ConditionExpression: 'attribute_exists(PK) AND Vacancies >= :participants',
      ExpressionAttributeValues: { ':participants': 3 },
    });
    expect(put.Put).toMatchObject({
      Item: { PK: 'OP#op-1#BOOKING#ABCDEFGH23', SK: 'BOOKING', GSI1PK: 'OP#op-1#BOOKINGS', GSI1SK: '2026-11-22T10:00:00.000Z#ABCDEFGH23' },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  });

  it('write the idempotency record in the same transaction, taking over only an expired one', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const record = { RequestHash: 'h', BookingReference: 'ABCDEFGH23', Response: '{}', CreatedAt: now.toISOString(), ExpiresAt: 1_800_000_000 };
    const items = bookingTransaction({ booking, idempotency: { keyId: 'key_1', keyHash: 'abc', record, now } }).TransactItems ?? [];
    expect(items).toHaveLength(3);
    expect(items[2].Put).toMatchObject({
      Item: { PK: 'OP#op-1#APIKEY#key_1#IDEMPOTENCY#abc', SK: 'IDEMPOTENCY', ExpiresAt: 1_800_000_000 },
      ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt <= :now',
      ExpressionAttributeValues: { ':now': now.getTime() / 1000 },
    });
  });

  it('cancel only a confirmed booking, giving its places back', () => {
    const [status, slot] = cancellationTransaction(booking, '2026-11-23T00:00:00.000Z').TransactItems ?? [];
    expect(status.Update).toMatchObject({ ConditionExpression: '#status = :confirmed' });
    expect(slot.Update).toMatchObject({
      UpdateExpression: 'SET Booked = Booked - :participants, Vacancies = Vacancies + :participants',
      ExpressionAttributeValues: { ':participants': 3 },
    });
  });
});
