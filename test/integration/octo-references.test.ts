import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { derivedReference } from '../../shared/booking/uuid-lookup';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../../shared/booking/constants';
import type { BookingItem } from '../../shared/booking/model';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import { octoWorld, reservation } from '../support/octo';

/**
 * An OCTo booking's reference is as unguessable as any other: nothing a
 * reseller, a customer or anyone who knows the operator, the key and the
 * uuid can compute. Bookings made while references were derived from those
 * keep their references and are still found by their uuids.
 */
const { world, day } = octoWorld();

const readBooking = async (reference: string): Promise<BookingItem> =>
  (
    await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(world.operator.operatorId, reference), ConsistentRead: true }),
    )
  ).Item as BookingItem;

/** Every reference the operator, the key and the uuid once gave a booking, in the order they were tried. */
const derivable = (item: BookingItem) =>
  Array.from({ length: 4 }, (_, attempt) => derivedReference(item.OperatorID, item.PartnerKeyID as string, item.UUID as string, attempt));

/**
 * The booking as it was made while references were derived: the same item
 * under the first derived reference, and no other item of the uuid's. Its
 * partner's indexes come with it, as it was written then.
 */
async function madeBefore(reference: string): Promise<string> {
  const item = await readBooking(reference);
  const [derived] = derivable(item);
  const { PK, SK, ...attributes } = (
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(item.OperatorID, reference) }))
  ).Item as Record<string, unknown>;
  void PK;
  void SK;
  const moved = JSON.parse(JSON.stringify(attributes).replaceAll(reference, derived)) as Record<string, unknown>;
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...moved, ...bookingKeys.booking(item.OperatorID, derived) } }),
  );
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: bookingKeys.booking(item.OperatorID, reference) }));
  for (const key of Object.values(uuidIndexKeys(item))) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: key }));
  }
  return derived;
}

/** The items that find a booking by its uuid, besides the booking itself (none while references were derived). */
const uuidIndexKeys = (item: BookingItem) => ({
  uuid: bookingKeys.uuidEntry(item.OperatorID, item.PartnerKeyID as string, item.UUID as string),
});

describe("an OCTo booking's reference", () => {
  test('cannot be derived from the operator, the key and the uuid: it is drawn at random, as any booking reference', async () => {
    const uuid = randomUUID();
    const held = (await world.octo('POST', '/bookings', reservation(day(1), '10:00', ['adult'], { uuid }))).json;
    expect(held.uuid).toBe(uuid);
    const item = await readBooking(held.supplierReference);
    expect(item).toMatchObject({ UUID: uuid, BookingReference: held.supplierReference });
    expect(derivable(item)).not.toContain(held.supplierReference);
    expect(held.supplierReference).toMatch(new RegExp(`^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`));
    // Still one read away by its uuid: the same request answers the same booking.
    const again = (await world.octo('POST', '/bookings', reservation(day(1), '10:00', ['adult'], { uuid }))).json;
    expect(again.supplierReference).toBe(held.supplierReference);
    expect((await world.octo('GET', `/bookings/${uuid}`)).json.supplierReference).toBe(held.supplierReference);
  });

  test('of a booking made while references were derived stays, and its uuid still finds it, for every action', async () => {
    const uuid = randomUUID();
    const body = reservation(day(2), '10:00', ['adult', 'child'], { uuid });
    const held = (await world.octo('POST', '/bookings', body)).json;
    const derived = await madeBefore(held.supplierReference);

    expect((await world.octo('GET', `/bookings/${uuid}`)).json).toMatchObject({ uuid, supplierReference: derived, status: 'ON_HOLD' });
    // The same reservation sent again answers that booking, and takes no places twice.
    const replayed = await world.octo('POST', '/bookings', body);
    expect(replayed.json).toMatchObject({ uuid, supplierReference: derived });
    const listed = (await world.octo('GET', `/bookings?localDate=${day(2)}`)).json as { uuid: string }[];
    expect(listed.filter((booking) => booking.uuid === uuid)).toHaveLength(1);
    const confirmed = await world.octo('POST', `/bookings/${uuid}/confirm`, {
      contact: { fullName: 'Ana Silva', emailAddress: 'ana@example.com' },
    });
    expect(confirmed.json).toMatchObject({ uuid, supplierReference: derived, status: 'CONFIRMED' });
    expect((await world.octo('POST', `/bookings/${uuid}/cancel`, { reason: 'Plans changed' })).json).toMatchObject({
      supplierReference: derived,
      status: 'CANCELLED',
    });
  });
});
