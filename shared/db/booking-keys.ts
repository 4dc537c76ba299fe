import { operatorPartition, type ItemKey } from './keys';

/*
 * Bookings. Each booking has a partition of its own, so that bookings spread
 * over the table instead of piling into the operator's partition; GSI1 lists
 * an operator's bookings of every channel by creation time. Idempotency
 * records are addressed by operator, API key and a hash of the partner's key.
 */
const bookingListPartition = (operatorId: string) => `${operatorPartition(operatorId)}#BOOKINGS`;

export const booking = (operatorId: string, reference: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#BOOKING#${reference}`,
  SK: 'BOOKING',
});

/** GSI1 entry: `createdAt` is an ISO 8601 UTC instant, so the sort key orders by creation time. */
export const bookingListEntry = (operatorId: string, createdAt: string, reference: string) => ({
  GSI1PK: bookingListPartition(operatorId),
  GSI1SK: `${createdAt}#${reference}`,
});

/** The full key of a list entry from its GSI1SK alone (the inverse of bookingListEntry), to resume a page after it. */
export const bookingListStartKey = (operatorId: string, listSortKey: string) => {
  const split = listSortKey.lastIndexOf('#');
  const [createdAt, reference] = [listSortKey.slice(0, split), listSortKey.slice(split + 1)];
  return { ...booking(operatorId, reference), ...bookingListEntry(operatorId, createdAt, reference) };
};

/** Inclusive GSI1SK bounds covering bookings created from instant `fromIso` to instant `toIso`. */
export const bookingListRange = (operatorId: string, fromIso: string, toIso: string) => ({
  GSI1PK: bookingListPartition(operatorId),
  SKFrom: fromIso,
  // '~' sorts after every character of a reference, so bookings created at exactly `toIso` are included.
  SKTo: `${toIso}#~`,
});

export const idempotencyRecord = (operatorId: string, keyId: string, idempotencyKeyHash: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#IDEMPOTENCY#${idempotencyKeyHash}`,
  SK: 'IDEMPOTENCY',
});

/** GSI2 entry of a live (held or confirmed) booking: the manifest of its timeslot's day, by activity and time. */
export const manifestEntry = (operatorId: string, date: string, activityId: string, time: string, reference: string) => ({
  GSI2PK: `${operatorPartition(operatorId)}#MANIFEST#${date}`,
  GSI2SK: `${activityId}#${time}#${reference}`,
});

/** GSI2 bounds of one day's manifest, of every activity, of one, or of one of its timeslots. */
export const manifestRange = (operatorId: string, date: string, activityId?: string, time?: string) => ({
  GSI2PK: `${operatorPartition(operatorId)}#MANIFEST#${date}`,
  SKPrefix: activityId ? `${activityId}#${time ? `${time}#` : ''}` : undefined,
});

/**
 * A partner's own reference of one of its UUID bookings (OCTo's
 * resellerReference), as a table item rather than an index entry so that a
 * search by it is strongly consistent: the booking confirmed a moment ago is found.
 */
export const resellerReferenceEntry = (operatorId: string, keyId: string, referenceHash: string, reference: string): ItemKey => ({
  PK: resellerReferencePartition(operatorId, keyId, referenceHash),
  SK: `BOOKING#${reference}`,
});

export const resellerReferencePrefix = (operatorId: string, keyId: string, referenceHash: string) => ({
  PK: resellerReferencePartition(operatorId, keyId, referenceHash),
  SKPrefix: 'BOOKING#',
});

/**
 * One booking of a customer, found by the SHA-256 of the customer's email
 * (trimmed, lower case): a table item beside the booking, written and
 * removed with it, so that every booking of one customer is one
 * consistent Query (an erasure by email), never a scan.
 */
export const customerEntry = (operatorId: string, emailHash: string, reference: string): ItemKey => ({
  PK: customerPartition(operatorId, emailHash),
  SK: `BOOKING#${reference}`,
});

export const customerPrefix = (operatorId: string, emailHash: string) => ({
  PK: customerPartition(operatorId, emailHash),
  SKPrefix: 'BOOKING#',
});

/**
 * A partner key's own UUID of one of its bookings (OCTo's uuid) → the
 * booking's reference, which is random: written with the booking, never
 * changed. Bookings made while references were derived from the UUID have none.
 */
export const uuidEntry = (operatorId: string, keyId: string, uuid: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#UUID#${uuid}`,
  SK: 'UUID',
});

/**
 * GSI4 entry of a partner's reservation (OCTo), for its whole life: its
 * timeslot's day, activity and time, so the partner can list its bookings
 * of a day or range, cancelled and expired ones included.
 */
export const partnerDay = (operatorId: string, keyId: string, date: string, activityId: string, time: string, reference: string) => ({
  GSI4PK: partnerDaysPartition(operatorId, keyId),
  GSI4SK: `${date}#${activityId}#${time}#${reference}`,
});

/** Inclusive GSI4SK bounds of the days from `firstDate` to `lastDate`. */
export const partnerDayRange = (operatorId: string, keyId: string, firstDate: string, lastDate: string) => ({
  GSI4PK: partnerDaysPartition(operatorId, keyId),
  SKFrom: `${firstDate}#`,
  SKTo: `${lastDate}#~`,
});

function customerPartition(operatorId: string, emailHash: string): string {
  return `${operatorPartition(operatorId)}#CUSTOMER#${emailHash}`;
}

function resellerReferencePartition(operatorId: string, keyId: string, referenceHash: string): string {
  return `${operatorPartition(operatorId)}#APIKEY#${keyId}#RESELLERREF#${referenceHash}`;
}

/** The segment keeps the name it was written with: stored keys do not change with the code's words. */
function partnerDaysPartition(operatorId: string, keyId: string): string {
  return `${operatorPartition(operatorId)}#APIKEY#${keyId}#RESELLERDAYS`;
}
