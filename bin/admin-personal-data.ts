import { indexPersonalData } from '../shared/booking/customer-index';
import { ERASURE_PAGE, erasePersonalData } from '../shared/booking/erasure';

/**
 * The admin CLI's commands of customers' personal data: an erasure, as the
 * operator's route makes it (by booking reference, or every page of a
 * customer's bookings by email), and the indexing of bookings made before
 * erasure and retention existed.
 */
interface Options {
  option(name: 'operator'): string;
  optional(name: 'reference' | 'email'): string | undefined;
  /** The CLI's error for a command given the wrong options (it prints the usage with it). */
  usageError(message: string): Error;
}

export const personalDataCommands = ({ option, optional, usageError }: Options): Record<string, (target: string) => Promise<void>> => ({
  'erase-personal-data': async (target) => {
    const [reference, email] = [optional('reference'), optional('email')];
    if ((reference === undefined) === (email === undefined)) throw usageError('Give --reference REF or --email EMAIL, one of them');
    let erased = 0;
    for (let more = true; more;) {
      const result = await erasePersonalData(option('operator'), { BookingReference: reference, Email: email }, ERASURE_PAGE.max);
      for (const booking of result.bookings) {
        console.log(
          `${booking.BookingReference}  ${booking.Status}  ${booking.ActivityID} ${booking.Date} ${booking.Time}  erased at ${booking.ErasedAt ?? '(held nothing personal)'}`,
        );
      }
      erased += result.bookings.length;
      more = result.more;
    }
    console.log(`Erased the personal data of ${erased} booking(s) in ${target}`);
  },
  'index-personal-data': async (target) => {
    const { read, indexed } = await indexPersonalData(option('operator'));
    console.log(`Read ${read} booking(s) of ${option('operator')} in ${target}; indexed ${indexed} for erasure by email and for retention`);
  },
});
