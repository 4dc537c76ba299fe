import type { EventBridgeEvent } from 'aws-lambda';
import { createApiKey } from '../../shared/accounts/api-keys';
import { eventRules } from '../../shared/api/event-rules';
import { cancelOperatorBooking } from '../../shared/booking/cancellation';
import { confirmHold, expireDueHolds } from '../../shared/booking/holds';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { cancelPartnerBooking, createPartnerBooking } from '../../shared/booking/partner-bookings';
import type { BookingRequest } from '../../shared/booking/schemas';
import { WEEKDAYS } from '../../shared/catalog/catalog-file';
import { addDays, zonedInstant } from '../../shared/core/calendar';
import type { Caller } from '../../shared/core/caller';
import { CapacityError } from '../../shared/core/errors';
import { recordPlatformEvent } from '../../shared/usage/platform-events';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import type { BatchEntryInput } from '../../shared/usage/schemas';
import type { BuiltInMeter } from '../../shared/usage/built-in-meters';

/**
 * A history for the demo operator, so that every screen of the dashboard
 * shows something on the first start: bookings of every channel made over
 * the last two weeks for timeslots from two weeks ago to two weeks ahead
 * (confirmed, held, holds that expired, cancelled by the partner and by the
 * operator), so today's and tomorrow's manifests are full; and three months of
 * usage on custom meters and on the built-in ones. Everything is written
 * through the domain's own paths, as the API would write it, at the instants
 * it would have happened. Pseudo-random with a fixed seed: every fresh start
 * shows the same history.
 */

/** The activities booked, with the weekdays and times of their schedules (demo-data.ts) and the largest party. */
export interface DemoActivity {
  activityId: string;
  /** SUN, MON ... */
  weekdays: string[];
  times: string[];
  maxParty: number;
  visible: boolean;
}

const HISTORY_DAYS = 14;
const USAGE_DAYS = 90;
const FIRST_NAMES = ['Ana', 'João', 'Marta', 'Tomás', 'Inês', 'Liam', 'Emma', 'Noah', 'Sofia', 'Lucas', 'Chloé', 'Mateo'];
const LAST_NAMES = ['Silva', 'Santos', 'Ferreira', 'Costa', 'Müller', 'Smith', 'Dubois', 'García', 'Rossi', 'Jansen', 'Novak', 'Kowalski'];
const OPERATOR_REASONS = ['Storm warning: no boats go out', 'Guide unwell, no replacement available', 'Harbour closed for a regatta'];

/** mulberry32: a small seeded generator, so the history is the same on every fresh start. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** A timeslot the history has filled up already refuses a booking, as it would have refused the customer; anything else is a fault. */
function unlessFull(error: unknown): undefined {
  if (error instanceof CapacityError) return undefined;
  throw error;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DemoHistory {
  bookings: number;
  usageEntries: number;
}

export async function seedDemoHistory(
  operator: { OperatorID: string; TimeZone: string },
  activities: DemoActivity[],
  today: string,
  now: Date,
): Promise<DemoHistory> {
  const random = seeded(20261124);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
  const partnerKey = await createApiKey(operator.OperatorID, ['ota'], 'Demo partner: Example OTA');
  const partner: Caller = { operatorId: operator.OperatorID, keyId: partnerKey.record.KeyID, scopes: ['ota'], timeZone: operator.TimeZone };
  const customer = () => {
    const FirstName = pick(FIRST_NAMES);
    const LastName = pick(LAST_NAMES);
    return {
      FirstName,
      LastName,
      Email: `${FirstName}.${LastName}@example.com`
        .normalize('NFD')
        .replace(/[^\x21-\x7e]/g, '')
        .toLowerCase(),
    };
  };

  interface Plan {
    request: BookingRequest;
    startsAt: number;
    createdAt: number;
    channel: 'ota' | 'online' | 'pos';
    fate: number;
  }
  const plans: Plan[] = [];
  for (let offset = -HISTORY_DAYS; offset <= HISTORY_DAYS; offset += 1) {
    const date = addDays(today, offset);
    const weekday = WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()];
    for (const activity of activities.filter((candidate) => candidate.weekdays.includes(weekday))) {
      for (const time of activity.times) {
        const startsAt = zonedInstant(date, time, operator.TimeZone);
        const count = 1 + Math.floor(random() * 3);
        for (let i = 0; i < count; i += 1) {
          // Made up to ten days before the timeslot, never in the future nor before the history begins.
          const createdAt = Math.min(now.getTime() - MINUTE, startsAt - Math.floor(1 + random() * 10) * DAY + Math.floor(random() * DAY));
          if (createdAt < now.getTime() - HISTORY_DAYS * DAY) continue;
          // Partners sell what the shopfront shows; the till sells on the day; the operator's shop sells everything.
          const channel = !activity.visible
            ? 'online'
            : startsAt - createdAt < DAY && random() < 0.5
              ? 'pos'
              : pick(['ota', 'ota', 'online'] as const);
          plans.push({
            request: {
              ActivityID: activity.activityId,
              Date: date,
              Time: time,
              Participants: 1 + Math.floor(random() * Math.min(4, activity.maxParty)),
              Customer: customer(),
              ...(channel === 'ota' ? { PaymentReference: `pay_${Math.floor(random() * 1e8)}` } : {}),
            },
            startsAt,
            createdAt,
            channel,
            fate: random(),
          });
        }
      }
    }
  }

  let bookings = 0;
  await inPool(plans, 8, async (plan) => {
    const made = new Date(plan.createdAt);
    if (plan.channel !== 'ota') {
      const booked = await recordOperatorBooking(operator.OperatorID, { ...plan.request, Channel: plan.channel }, made).catch(
        () => undefined,
      );
      if (booked) bookings += 1;
      return;
    }
    const upcoming = plan.startsAt > now.getTime() + 2 * HOUR;
    // Some partner sales were held first: confirmed ten minutes later, or (a few) left to expire.
    const held = plan.fate < 0.3;
    const result = await createPartnerBooking(
      partner,
      { ...plan.request, ...(held ? { Hold: { ExpiresInMinutes: 30 } } : {}) },
      undefined,
      made,
    ).catch(unlessFull);
    if (!result) return;
    bookings += 1;
    const reference = result.booking.BookingReference;
    const later = (ms: number) => new Date(Math.min(now.getTime() - MINUTE, plan.createdAt + ms));
    if (held && plan.fate > 0.05) await confirmHold(partner, reference, {}, later(10 * MINUTE));
    // A partner cancels only before the timeslot starts.
    if (plan.fate > 0.9 && upcoming && plan.startsAt - plan.createdAt > 2 * HOUR)
      await cancelPartnerBooking(partner, reference, later(HOUR));
    else if (plan.fate > 0.85) await cancelOperatorBooking(operator.OperatorID, reference, pick(OPERATOR_REASONS), later(2 * HOUR));
  });
  // The holds left unconfirmed expired long ago; two live ones wait on tomorrow's timeslots that still have room.
  await expireDueHolds(now);
  const tomorrow = addDays(today, 1);
  const tomorrowsWeekday = WEEKDAYS[new Date(`${tomorrow}T12:00:00Z`).getUTCDay()];
  const tomorrowsSlots = activities
    .filter((activity) => activity.visible && activity.weekdays.includes(tomorrowsWeekday))
    .flatMap((activity) =>
      activity.times.map((time) => ({ ActivityID: activity.activityId, Date: tomorrow, Time: time, Participants: 1 })),
    );
  let liveHolds = 0;
  for (const slot of tomorrowsSlots) {
    if (liveHolds === 2) break;
    if (await createPartnerBooking(partner, { ...slot, Hold: { ExpiresInMinutes: 60 } }, undefined, now).catch(unlessFull)) liveHolds += 1;
  }
  bookings += liveHolds;

  return { bookings, usageEntries: await seedDemoUsage(operator.OperatorID, today, random) };
}

/** Three months of usage: an API's calls, storage, text messages, and the platform's own events. */
async function seedDemoUsage(operatorId: string, today: string, random: () => number): Promise<number> {
  const days: BatchEntryInput[][] = [];
  const events: { meter: BuiltInMeter; at: number }[] = [];
  const startOfDay = (day: string) => Date.parse(`${day}T00:00:00Z`);
  for (let offset = -USAGE_DAYS; offset < 0; offset += 1) {
    const day = addDays(today, offset);
    const entries: BatchEntryInput[] = [];
    days.push(entries);
    const growth = 1 + (USAGE_DAYS + offset) / USAGE_DAYS;
    for (let hour = 0; hour < 24; hour += 4) {
      const at = Math.floor((startOfDay(day) + hour * HOUR + random() * 4 * HOUR) / 1000);
      entries.push({ Meter: 'api-calls', Usage: Math.round((200 + random() * 400) * growth), OccurredAt: at });
    }
    entries.push({
      Meter: 'storage-gb',
      Usage: Math.round((12.5 + offset / 40 + random()) * 1000) / 1000,
      OccurredAt: startOfDay(day) / 1000 + 3600,
    });
    for (let i = Math.floor(random() * 4); i > 0; i -= 1) {
      entries.push({
        Meter: 'sms-sent',
        Usage: 1 + Math.floor(random() * 20),
        OccurredAt: Math.floor((startOfDay(day) + random() * DAY) / 1000),
      });
    }
    const during = () => startOfDay(day) + 8 * HOUR + random() * 12 * HOUR;
    for (let i = 1 + Math.floor(random() * 4 * growth); i > 0; i -= 1) events.push({ meter: 'order-completed', at: during() });
    if (random() < 0.4) events.push({ meter: 'waitlist-notified', at: during() });
    for (let i = 1 + Math.floor(random() * 2); i > 0; i -= 1) events.push({ meter: 'workflow-email-sent', at: during() });
  }
  // A batch a day, as a metering client flushes its buffer, recorded now: entry IDs are drawn from the time of recording.
  for (const entries of days) await recordUsageBatch(operatorId, entries);
  const detailOf = {
    'order-completed': (i: number) => ({ BasketID: `b_demo_${i}` }),
    'waitlist-notified': (i: number) => ({ WaitlistID: `w_demo_${i}`, MultiBookingID: `mb_demo_${i}` }),
    'workflow-email-sent': () => ({}),
  };
  // One at a time: events of one meter and day add to the same aggregates, and more at once would only contend for them.
  for (const [i, { meter, at }] of events.entries()) {
    const rule = eventRules.find((candidate) => candidate.meter === meter);
    const event: EventBridgeEvent<string, unknown> = {
      version: '0',
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      'detail-type': rule?.detailType ?? meter,
      source: rule?.source ?? 'platform',
      account: '000000000000',
      time: new Date(at).toISOString(),
      region: 'local',
      resources: [],
      detail: { OperatorID: operatorId, ...detailOf[meter](i) },
    };
    await recordPlatformEvent(event, meter);
  }
  return days.flat().length + events.length;
}
