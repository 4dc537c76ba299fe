import { USAGE_LEVELS, type UsageLevel } from './usage-levels';

/**
 * Every key of the single table is built here and nowhere else.
 * Entity prefixes keep item types apart inside shared partitions.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

const operatorPartition = (operatorId: string) => `OP#${operatorId}`;
const activityPartition = (operatorId: string, activityId: string) => `OP#${operatorId}#ACT#${activityId}`;

export const keys = {
  operator: (operatorId: string): ItemKey => ({ PK: operatorPartition(operatorId), SK: 'OPERATOR' }),

  /** The authorizer's lookup: the SHA-256 of the presented secret is the key. */
  apiKeyByHash: (secretHash: string): ItemKey => ({ PK: `APIKEY#${secretHash}`, SK: 'APIKEY' }),
  /** The operator's view of one of its keys, addressed by its public key ID. */
  operatorApiKey: (operatorId: string, keyId: string): ItemKey => ({
    PK: operatorPartition(operatorId),
    SK: `APIKEY#${keyId}`,
  }),
  operatorApiKeyPrefix: (operatorId: string) => ({ PK: operatorPartition(operatorId), SKPrefix: 'APIKEY#' }),

  product: (operatorId: string, activityId: string): ItemKey => ({
    PK: operatorPartition(operatorId),
    SK: `PRODUCT#${activityId}`,
  }),
  productPrefix: (operatorId: string) => ({ PK: operatorPartition(operatorId), SKPrefix: 'PRODUCT#' }),
  /** GSI1 entry that resolves an operator's numeric ProductID to its product item. */
  productIdIndex: (operatorId: string, productId: number) => ({
    GSI1PK: `${operatorPartition(operatorId)}#PRODUCTID#${productId}`,
    GSI1SK: 'PRODUCT',
  }),

  timeslot: (operatorId: string, activityId: string, date: string, time: string): ItemKey => ({
    PK: activityPartition(operatorId, activityId),
    SK: `SLOT#${date}#${time}`,
  }),
  /** The operator, activity, date and time a timeslot's key names (its inverse), or undefined for another key. */
  timeslotOf: (key: ItemKey) => {
    const partition = /^OP#(.+)#ACT#([^#]+)$/.exec(key.PK);
    const sort = /^SLOT#(\d{4}-\d{2}-\d{2})#(\d{2}:\d{2})$/.exec(key.SK);
    return partition && sort ? { operatorId: partition[1], activityId: partition[2], date: sort[1], time: sort[2] } : undefined;
  },
  /** The operator and activity a product's key names (its inverse), or undefined for another key. */
  productOf: (key: ItemKey) => {
    const partition = /^OP#(.+)$/.exec(key.PK);
    const sort = /^PRODUCT#([^#]+)$/.exec(key.SK);
    return partition && sort ? { operatorId: partition[1], activityId: sort[1] } : undefined;
  },
  /** Inclusive SK bounds covering every timeslot from the first date to the last date. */
  timeslotRange: (operatorId: string, activityId: string, firstDate: string, lastDate: string) => ({
    PK: activityPartition(operatorId, activityId),
    SKFrom: `SLOT#${firstDate}#`,
    // '~' sorts after every character a time can contain, so the whole last day is included.
    SKTo: `SLOT#${lastDate}#~`,
  }),
  /**
   * The bookings a cancellation of a timeslot (started at `startedAt`) set
   * out to cancel, beside its timeslot but outside the SLOT# range, so
   * availability reads never meet it.
   */
  timeslotCancellation: (operatorId: string, activityId: string, date: string, time: string, startedAt: string): ItemKey => ({
    PK: activityPartition(operatorId, activityId),
    SK: `CANCELLATION#${date}#${time}#${startedAt}`,
  }),
};

/*
 * Bookings. Each booking has a partition of its own, so that bookings spread
 * over the table instead of piling into the operator's partition; GSI1 lists
 * an operator's bookings of every channel by creation time. Idempotency
 * records are addressed by operator, API key and a hash of the partner's key.
 */
const bookingListPartition = (operatorId: string) => `${operatorPartition(operatorId)}#BOOKINGS`;

export const bookingKeys = {
  booking: (operatorId: string, reference: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#BOOKING#${reference}`,
    SK: 'BOOKING',
  }),
  /** GSI1 entry: `createdAt` is an ISO 8601 UTC instant, so the sort key orders by creation time. */
  bookingListEntry: (operatorId: string, createdAt: string, reference: string) => ({
    GSI1PK: bookingListPartition(operatorId),
    GSI1SK: `${createdAt}#${reference}`,
  }),
  /** The full key of a list entry from its GSI1SK alone (the inverse of bookingListEntry), to resume a page after it. */
  bookingListStartKey: (operatorId: string, listSortKey: string) => {
    const split = listSortKey.lastIndexOf('#');
    const [createdAt, reference] = [listSortKey.slice(0, split), listSortKey.slice(split + 1)];
    return { ...bookingKeys.booking(operatorId, reference), ...bookingKeys.bookingListEntry(operatorId, createdAt, reference) };
  },
  /** Inclusive GSI1SK bounds covering bookings created from instant `fromIso` to instant `toIso`. */
  bookingListRange: (operatorId: string, fromIso: string, toIso: string) => ({
    GSI1PK: bookingListPartition(operatorId),
    SKFrom: fromIso,
    // '~' sorts after every character of a reference, so bookings created at exactly `toIso` are included.
    SKTo: `${toIso}#~`,
  }),
  idempotencyRecord: (operatorId: string, keyId: string, idempotencyKeyHash: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#IDEMPOTENCY#${idempotencyKeyHash}`,
    SK: 'IDEMPOTENCY',
  }),
  /** GSI2 entry of a live (held or confirmed) booking: the manifest of its timeslot's day, by activity and time. */
  manifestEntry: (operatorId: string, date: string, activityId: string, time: string, reference: string) => ({
    GSI2PK: `${operatorPartition(operatorId)}#MANIFEST#${date}`,
    GSI2SK: `${activityId}#${time}#${reference}`,
  }),
  /** GSI2 bounds of one day's manifest, of every activity, of one, or of one of its timeslots. */
  manifestRange: (operatorId: string, date: string, activityId?: string, time?: string) => ({
    GSI2PK: `${operatorPartition(operatorId)}#MANIFEST#${date}`,
    SKPrefix: activityId ? `${activityId}#${time ? `${time}#` : ''}` : undefined,
  }),
  /**
   * A partner's own reference of one of its UUID bookings (OCTo's
   * resellerReference), as a table item rather than an index entry so that a
   * search by it is strongly consistent: the booking confirmed a moment ago is found.
   */
  resellerReferenceEntry: (operatorId: string, keyId: string, referenceHash: string, reference: string): ItemKey => ({
    PK: resellerReferencePartition(operatorId, keyId, referenceHash),
    SK: `BOOKING#${reference}`,
  }),
  resellerReferencePrefix: (operatorId: string, keyId: string, referenceHash: string) => ({
    PK: resellerReferencePartition(operatorId, keyId, referenceHash),
    SKPrefix: 'BOOKING#',
  }),
  /**
   * One booking of a customer, found by the SHA-256 of the customer's email
   * (trimmed, lower case): a table item beside the booking, written and
   * removed with it, so that every booking of one customer is one
   * consistent Query (an erasure by email), never a scan.
   */
  customerEntry: (operatorId: string, emailHash: string, reference: string): ItemKey => ({
    PK: customerPartition(operatorId, emailHash),
    SK: `BOOKING#${reference}`,
  }),
  customerPrefix: (operatorId: string, emailHash: string) => ({ PK: customerPartition(operatorId, emailHash), SKPrefix: 'BOOKING#' }),
  /**
   * A partner key's own UUID of one of its bookings (OCTo's uuid) → the
   * booking's reference, which is random: written with the booking, never
   * changed. Bookings made while references were derived from the UUID have none.
   */
  uuidEntry: (operatorId: string, keyId: string, uuid: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#UUID#${uuid}`,
    SK: 'UUID',
  }),
  /**
   * GSI4 entry of a partner's reservation (OCTo), for its whole life: its
   * timeslot's day, activity and time, so the partner can list its bookings
   * of a day or range, cancelled and expired ones included.
   */
  partnerDay: (operatorId: string, keyId: string, date: string, activityId: string, time: string, reference: string) => ({
    GSI4PK: partnerDaysPartition(operatorId, keyId),
    GSI4SK: `${date}#${activityId}#${time}#${reference}`,
  }),
  /** Inclusive GSI4SK bounds of the days from `firstDate` to `lastDate`. */
  partnerDayRange: (operatorId: string, keyId: string, firstDate: string, lastDate: string) => ({
    GSI4PK: partnerDaysPartition(operatorId, keyId),
    SKFrom: `${firstDate}#`,
    SKTo: `${lastDate}#~`,
  }),
};

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

/*
 * The places a partner key holds at once (its bookings ON_HOLD): a counter
 * in all and one per timeslot, in a partition of the key's, each changed in
 * the transaction that takes or gives back the held places.
 */
const holdsPartition = (operatorId: string, keyId: string) => `${operatorPartition(operatorId)}#APIKEY#${keyId}#HOLDS`;

export const holdKeys = {
  total: (operatorId: string, keyId: string): ItemKey => ({ PK: holdsPartition(operatorId, keyId), SK: 'TOTAL' }),
  timeslot: (operatorId: string, keyId: string, activityId: string, date: string, time: string): ItemKey => ({
    PK: holdsPartition(operatorId, keyId),
    SK: `SLOT#${activityId}#${date}#${time}`,
  }),
};

type DueKind = 'HOLD' | 'WEBHOOK' | 'FLUSH' | 'RETENTION' | 'TIMESLOT';

/*
 * Work that falls due, on the sparse GSI3: an item carries the entry only
 * while the work is pending, so the one-minute sweeps read what is due and
 * nothing else. Each kind is one partition ordered by due instant (ISO 8601 UTC).
 */
export const dueKeys = {
  holdExpiry: (holdExpiresAt: string, operatorId: string, reference: string) => ({
    GSI3PK: 'DUE#HOLD',
    GSI3SK: `${holdExpiresAt}#${operatorId}#${reference}`,
  }),
  webhookAttempt: (nextAttemptAt: string, deliveryId: string) => ({
    GSI3PK: 'DUE#WEBHOOK',
    GSI3SK: `${nextAttemptAt}#${deliveryId}`,
  }),
  /** A timeslot's announcement waiting for its trailing flush (shared/changes): found by the sweep if the flush is lost. */
  announcementFlush: (flushAt: string, operatorId: string, activityId: string, date: string, time: string) => ({
    GSI3PK: 'DUE#FLUSH',
    GSI3SK: `${flushAt}#${operatorId}#${activityId}#${date}#${time}`,
  }),
  /**
   * A booking that holds personal data, by the end of its activity (UTC): its
   * data is due for anonymising a retention period after that instant, so the
   * sweep reads the entries up to now minus the period, whatever it is set to.
   */
  retention: (endsAtUtc: string, operatorId: string, reference: string) => ({
    GSI3PK: 'DUE#RETENTION',
    GSI3SK: `${endsAtUtc}#${operatorId}#${reference}`,
  }),
  /** A timeslot whose cancellation has not finished: the sweep finishes it once `dueAt` has passed. */
  timeslotCancellation: (dueAt: string, operatorId: string, activityId: string, date: string, time: string) => ({
    GSI3PK: 'DUE#TIMESLOT',
    GSI3SK: `${dueAt}#${operatorId}#${activityId}#${date}#${time}`,
  }),
  /** The whole partition of one kind: everything pending, due or not. */
  pending: (kind: DueKind) => ({ GSI3PK: `DUE#${kind}` }),
  /** Inclusive upper bound of the entries of `kind` due at or before `nowIso`. */
  dueBy: (kind: DueKind, nowIso: string) => ({ GSI3PK: `DUE#${kind}`, SKTo: `${nowIso}#~` }),
};

/* Webhooks: a partner key's one endpoint, the operator's usage endpoint, and each pending delivery in a partition of its own. */
export const webhookKeys = {
  endpoint: (operatorId: string, keyId: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#WEBHOOK`,
    SK: 'WEBHOOK',
  }),
  /** The operator's own endpoint for its usage alerts. */
  usageEndpoint: (operatorId: string): ItemKey => ({ PK: `${operatorPartition(operatorId)}#USAGE#WEBHOOK`, SK: 'WEBHOOK' }),
  delivery: (operatorId: string, deliveryId: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#WEBHOOK#${deliveryId}`,
    SK: 'DELIVERY',
  }),
  /** A key's OCTo subscriptions, in one partition of the key's. */
  subscription: (operatorId: string, keyId: string, subscriptionId: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#SUBSCRIPTIONS`,
    SK: `SUBSCRIPTION#${subscriptionId}`,
  }),
  subscriptionPrefix: (operatorId: string, keyId: string) => ({
    PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#SUBSCRIPTIONS`,
    SKPrefix: 'SUBSCRIPTION#',
  }),
  /**
   * GSI1 entry of everyone who may hear of an operator's changes (an
   * endpoint, an OCTo subscription): the announcer lists them by operator.
   */
  listener: (operatorId: string, kind: 'ENDPOINT' | 'SUBSCRIPTION', keyId: string, subscriptionId = '') => ({
    GSI1PK: `${operatorPartition(operatorId)}#LISTENERS`,
    GSI1SK: `${kind}#${keyId}#${subscriptionId}`,
  }),
  listeners: (operatorId: string) => ({ GSI1PK: `${operatorPartition(operatorId)}#LISTENERS` }),
};

/*
 * What partners hear of changes (shared/changes). Per timeslot, the record of
 * what was last announced, beside the timeslot in its activity's partition
 * (its SK is no SLOT#, so the stream's filter leaves it out); per product
 * likewise. Per operator, the changes feed in FEED_SHARDS shards: each a
 * position counter and one entry per timeslot at the position of its latest
 * announcement, in one partition read with consistent Queries, so positions
 * follow commit order within the shard. A timeslot stays in one shard.
 */
export const FEED_SHARDS = 8;
const changesPartition = (operatorId: string, shard: number) => `${operatorPartition(operatorId)}#CHANGES#${shard}`;
/** Positions are zero-padded to 16 digits, so the sort key orders entries by position. */
const feedSortKey = (position: number) => `CHANGE#${String(position).padStart(16, '0')}`;

export const changeKeys = {
  timeslotAnnouncement: (operatorId: string, activityId: string, date: string, time: string): ItemKey => ({
    PK: activityPartition(operatorId, activityId),
    SK: `ANNOUNCED#${date}#${time}`,
  }),
  productAnnouncement: (operatorId: string, activityId: string): ItemKey => ({
    PK: operatorPartition(operatorId),
    SK: `ANNOUNCED#PRODUCT#${activityId}`,
  }),
  feedPosition: (operatorId: string, shard: number): ItemKey => ({ PK: changesPartition(operatorId, shard), SK: 'POSITION' }),
  feedEntry: (operatorId: string, shard: number, position: number): ItemKey => ({
    PK: changesPartition(operatorId, shard),
    SK: feedSortKey(position),
  }),
  /** SK bounds of a shard's entries after `position`. */
  feedAfter: (operatorId: string, shard: number, position: number) => ({
    PK: changesPartition(operatorId, shard),
    SKFrom: feedSortKey(position + 1),
    SKTo: 'CHANGE#~',
  }),
};

/*
 * Usage metering. Entries and their aggregates are spread over numbered
 * shards so that one busy operator or meter does not exceed a partition's or
 * an item's write limit. An entry lives in the shard its ID selects, and is
 * added to the hour, day and month aggregates of its meter in the same shard;
 * each level of aggregate has a partition of its own per shard, so one entry
 * writes to four partitions, each at most once.
 */
const usageShardPartition = (operatorId: string, kind: string, shard: number) => `${operatorPartition(operatorId)}#USAGE#${kind}#${shard}`;

export type IdempotencyOrigin = 'client' | 'platform-event';

export const usageKeys = {
  /** IDs are zero-padded to 16 digits (2^53 has 16), so the sort key orders entries by ID, that is by recording time. */
  entry: (operatorId: string, shard: number, id: number): ItemKey => ({
    PK: usageShardPartition(operatorId, 'ENTRIES', shard),
    SK: `ENTRY#${String(id).padStart(16, '0')}`,
  }),
  entryPrefix: (operatorId: string, shard: number) => ({ PK: usageShardPartition(operatorId, 'ENTRIES', shard), SKPrefix: 'ENTRY#' }),
  /** `bucket` is the UTC hour `YYYY-MM-DDTHH`, day `YYYY-MM-DD` or month `YYYY-MM`. */
  aggregate: (operatorId: string, shard: number, level: UsageLevel, bucket: string, meter: string): ItemKey => ({
    PK: usageShardPartition(operatorId, USAGE_LEVELS[level].partition, shard),
    SK: `${USAGE_LEVELS[level].prefix}#${bucket}#${meter}`,
  }),
  /** Inclusive SK bounds covering every meter's aggregate of one level from the first bucket to the last. */
  aggregateRange: (operatorId: string, shard: number, level: UsageLevel, firstBucket: string, lastBucket: string) => ({
    PK: usageShardPartition(operatorId, USAGE_LEVELS[level].partition, shard),
    SKFrom: `${USAGE_LEVELS[level].prefix}#${firstBucket}#`,
    // '~' sorts after every character a meter name can contain, so every meter of the last bucket is included.
    SKTo: `${USAGE_LEVELS[level].prefix}#${lastBucket}#~`,
  }),
  /** Every aggregate of one level in one shard (the rebuild's view). */
  aggregatePrefix: (operatorId: string, shard: number, level: UsageLevel) => ({
    PK: usageShardPartition(operatorId, USAGE_LEVELS[level].partition, shard),
    SKPrefix: `${USAGE_LEVELS[level].prefix}#`,
  }),
  /**
   * The custom meters of an operator, in one partition written only when a
   * meter is met for the first time: the count, and an item per meter.
   */
  meterCount: (operatorId: string): ItemKey => ({ PK: `${operatorPartition(operatorId)}#USAGE#METERS`, SK: 'COUNT' }),
  meter: (operatorId: string, meter: string): ItemKey => ({ PK: `${operatorPartition(operatorId)}#USAGE#METERS`, SK: `METER#${meter}` }),
  /**
   * The Dimensions combinations of an operator's meters, in one partition
   * written only when a meter meets a combination for the first time: per
   * meter a count, and per combination its number (found by the SHA-256 of
   * its canonical JSON) and its dimensions (found by its number).
   */
  combinationCount: (operatorId: string, meter: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#COMBINATIONS`,
    SK: `COUNT#${meter}`,
  }),
  combinationByDimensions: (operatorId: string, meter: string, dimensionsHash: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#COMBINATIONS`,
    SK: `DIMENSIONS#${meter}#${dimensionsHash}`,
  }),
  combinationByNumber: (operatorId: string, meter: string, combination: number): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#COMBINATIONS`,
    SK: `NUMBER#${meter}#${combination}`,
  }),
  /**
   * Clients' idempotency keys (the Idempotency-Key header and batch entries'
   * Identifiers share one space) and platform event IDs are kept apart, so
   * neither can block the other.
   */
  idempotencyRecord: (operatorId: string, origin: IdempotencyOrigin, idempotencyKeyHash: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#IDEMPOTENCY#${origin === 'client' ? 'CLIENT' : 'EVENT'}#${idempotencyKeyHash}`,
    SK: 'IDEMPOTENCY',
  }),
};

/*
 * Usage limits: the definitions and their count in one partition (written only when a limit is put or deleted);
 * each meter's limits copied into a guard per aggregate shard, checked by recording beside that shard's aggregates;
 * the gates counting a limit's periods (a REFUSE limit's in a partition of its own, a NONE limit's one per shard),
 * and the thresholds crossed in each period in a partition apart from the gates' writes.
 */
const limitsPartition = (operatorId: string) => `${operatorPartition(operatorId)}#USAGE#LIMITS`;

export const limitKeys = {
  count: (operatorId: string): ItemKey => ({ PK: limitsPartition(operatorId), SK: 'COUNT' }),
  limit: (operatorId: string, limitId: string): ItemKey => ({ PK: limitsPartition(operatorId), SK: `LIMIT#${limitId}` }),
  limitPrefix: (operatorId: string) => ({ PK: limitsPartition(operatorId), SKPrefix: 'LIMIT#' }),
  guard: (operatorId: string, shard: number, meter: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#GUARDS#${shard}`,
    SK: `METER#${meter}`,
  }),
  /** A REFUSE limit's one gate per period (a NONE limit counts in its meter's guards). */
  gate: (operatorId: string, gateKey: string, periodKey: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#GATE#${gateKey}`,
    SK: `PERIOD#${periodKey}`,
  }),
  alerts: (operatorId: string, gateKey: string, periodKey: string): ItemKey => ({
    PK: `${operatorPartition(operatorId)}#USAGE#ALERTS#${gateKey}`,
    SK: `PERIOD#${periodKey}`,
  }),
};
