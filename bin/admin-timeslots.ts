import * as operators from '../shared/accounts/operators';
import * as addTimeslots from '../shared/api/validators/add-timeslots.generated';
import * as cancelTimeslotRoute from '../shared/api/validators/cancel-timeslot.generated';
import * as changeTimeslotDate from '../shared/api/validators/change-timeslot-date.generated';
import * as changeTimeslot from '../shared/api/validators/change-timeslot.generated';
import * as getTimeslots from '../shared/api/validators/get-timeslots.generated';
import { addOperatorTimeslots, changeOperatorDate, changeOperatorTimeslot, operatorDay } from '../shared/booking/operator-timeslots';
import { cancelTimeslot } from '../shared/booking/timeslot-cancellation';
import type { AddTimeslots, DateChange, OperatorTimeslot, TimeslotChange } from '../shared/booking/timeslot-schemas';
import { checkedBy, type GeneratedValidator } from '../shared/core/validation';

/**
 * The admin CLI's commands of the operator's timeslots (bin/admin.ts runs
 * them): the day, capacity, closing and reopening, one-off timeslots,
 * cancelling a timeslot with its bookings. Each takes what the API's route
 * takes, checked by that route's own validators, and makes the change as
 * `admin` through the same domain functions.
 */
export interface Cli {
  /** A required option's value. */
  option(name: 'operator' | 'activity' | 'date' | 'time' | 'capacity' | 'reason'): string;
  optional(name: 'reason' | 'time' | 'file'): string | undefined;
  readJsonFile(file: string): unknown;
}

export function timeslotCommands({ option, optional, readJsonFile }: Cli): Record<string, () => Promise<void>> {
  /** Who changes timeslots from the CLI: the operator, in its time zone, as `admin`. */
  const editor = async () => ({
    operatorId: option('operator'),
    timeZone: (await operators.requireOperator(option('operator'))).TimeZone,
    by: 'admin',
  });

  /** What the options give, checked by the route's own validator of that part of its request: the CLI takes what the API takes. */
  const checked = <T>(validator: GeneratedValidator | undefined, value: unknown): T =>
    validator ? checkedBy<T>(validator, 'The options')(value) : (value as T);

  /** The timeslot --activity, --date and --time name. */
  function timeslotOptions(path: GeneratedValidator | undefined) {
    const { ActivityID, Date, Time } = checked<{ ActivityID: string; Date: string; Time: string }>(path, {
      ActivityID: option('activity'),
      Date: option('date'),
      Time: option('time'),
    });
    return { activityId: ActivityID, date: Date, time: Time };
  }

  /** A whole number as typed, else the text, for the schema to refuse in its words. */
  const wholeNumber = (text: string): number | string => (/^\d{1,6}$/.test(text) ? Number(text) : text);

  /** Closes or reopens one timeslot (--time) or every timeslot of the date. */
  async function changeOpening(change: DateChange): Promise<void> {
    if (optional('time') === undefined) {
      const { ActivityID, Date } = checked<{ ActivityID: string; Date: string }>(changeTimeslotDate.validators.path, {
        ActivityID: option('activity'),
        Date: option('date'),
      });
      const body = checked<DateChange>(changeTimeslotDate.validators.body, change);
      printTimeslots(await changeOperatorDate(await editor(), { activityId: ActivityID, date: Date }, body));
      return;
    }
    const slot = timeslotOptions(changeTimeslot.validators.path);
    printTimeslots([await changeOperatorTimeslot(await editor(), slot, checked<TimeslotChange>(changeTimeslot.validators.body, change))]);
  }

  function printTimeslots(slots: OperatorTimeslot[]): void {
    if (!slots.length) console.log('No timeslots.');
    for (const slot of slots) {
      const closed = slot.Closed
        ? `  closed by ${slot.ClosedBy} at ${slot.ClosedAt}${slot.ClosedReason ? `: ${slot.ClosedReason}` : ''}`
        : '';
      console.log(
        `${slot.ActivityID} ${slot.Date} ${slot.Time}  ${slot.Status.padEnd(9)}  capacity ${slot.Capacity}, booked ${slot.Booked}, held ${slot.Held}, left ${slot.Vacancies}${closed}`,
      );
    }
  }

  return {
    timeslots: async () => {
      const { ActivityID } = checked<{ ActivityID: string }>(getTimeslots.validators.path, { ActivityID: option('activity') });
      const { date } = checked<{ date: string }>(getTimeslots.validators.query, { date: option('date') });
      printTimeslots(await operatorDay(await editor(), ActivityID, date));
    },
    'set-capacity': async () => {
      const slot = timeslotOptions(changeTimeslot.validators.path);
      const body = checked<TimeslotChange>(changeTimeslot.validators.body, { Capacity: wholeNumber(option('capacity')) });
      printTimeslots([await changeOperatorTimeslot(await editor(), slot, body)]);
    },
    'close-timeslot': () => {
      const reason = optional('reason');
      return changeOpening({ Closed: true, ...(reason === undefined ? {} : { Reason: reason }) });
    },
    'reopen-timeslot': () => changeOpening({ Closed: false }),
    'add-timeslot': async () => {
      const { ActivityID } = checked<{ ActivityID: string }>(addTimeslots.validators.path, { ActivityID: option('activity') });
      const file = optional('file');
      const wanted = file
        ? readJsonFile(file)
        : { Timeslots: [{ Date: option('date'), Time: option('time'), Capacity: wholeNumber(option('capacity')) }] };
      printTimeslots(await addOperatorTimeslots(await editor(), ActivityID, checked<AddTimeslots>(addTimeslots.validators.body, wanted)));
    },
    'cancel-timeslot': async () => {
      const slot = timeslotOptions(cancelTimeslotRoute.validators.path);
      const { Reason } = checked<{ Reason: string }>(cancelTimeslotRoute.validators.body, { Reason: option('reason') });
      const answer = await cancelTimeslot(await editor(), slot, Reason);
      printTimeslots([answer.Timeslot]);
      const rest = answer.Timeslot.Cancellation?.Complete
        ? ''
        : ' so far; run the command again to finish (the running service finishes it too)';
      console.log(`Cancelled ${answer.CancelledBookings.length} booking(s)${rest}: ${answer.CancelledBookings.join(' ')}`);
    },
  };
}
