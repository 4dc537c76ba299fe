import { gatewayProblems } from '../api/gateway';
import { example } from '../api/examples';
import { BookingCancelledError, HoldCapError, HoldExpiredError, TimeslotStartedError } from '../booking/errors';
import { DEFAULT_HOLD_CAPS } from '../accounts/hold-caps';
import { insufficientCapacity } from '../booking/create-booking';
import { customerSchema } from '../booking/schemas';
import { activityNotFound } from '../catalog/products';
import { ACTIVITY_ID_RULE } from '../catalog/constants';
import { CursorExpiredError } from '../changes/feed';
import { ValidationError } from '../core/errors';
import { entryRefused } from '../usage/limit-refusals';
import { BuiltInEntryError } from '../usage/void-entry';
import { MalformedJsonError, clientProblemFor, UnsupportedMediaTypeError } from './errors';
import { BUSY } from './problem-face';

/**
 * Every problem the API answers with, grouped by status, for the OpenAPI
 * document. The examples are made by the code that answers them: real
 * domain errors put through the one mapping (errors.ts), and the gateway's
 * own problems, so the document cannot drift from what clients receive.
 */
export interface ProblemStatus {
  /** The component name of the response. */
  name: string;
  description: string;
  examples: { kind: string; detail: string }[];
}

/** The problem a client receives for this error, as the handlers answer it. */
function errorExample(error: unknown, fields = {}): { status: number; kind: string; detail: string } {
  const problem = clientProblemFor(error, fields);
  if (!problem) throw new Error(`${String(error)} is not a client problem`);
  return problem;
}

const gatewayExample = (type: keyof typeof gatewayProblems) => gatewayProblems[type];

const DESCRIPTIONS: Record<number, Omit<ProblemStatus, 'examples'>> = {
  400: {
    name: 'BadRequest',
    description:
      'A malformed path parameter, parameters that contradict each other (resolve-product without exactly one of ID and Name), or a body that is not JSON (`malformed-json`).',
  },
  401: { name: 'Unauthorized', description: 'No API key, a malformed Authorization header, or an unknown or revoked key.' },
  403: {
    name: 'Forbidden',
    description:
      "A valid API key without the route's scope (`forbidden`), or an act no key may do: voiding an entry of a built-in meter (`built-in-entry`), which only the admin CLI does. Nothing is changed.",
  },
  404: {
    name: 'NotFound',
    description:
      "An unknown (or hidden, or another operator's or partner's) product, activity, booking, usage entry or usage limit, or a webhook endpoint not registered.",
  },
  409: {
    name: 'Conflict',
    description:
      "The state of the booking or timeslot refuses the request: fewer places left than asked for (`insufficient-capacity`; nothing is written), a hold confirmed at or after its expiry (`hold-expired`), a cancelled booking confirmed (`booking-cancelled`), a partner cancelling once the timeslot has started (`timeslot-started`), or a hold past the places the key may hold at once (`hold-cap-reached`; nothing is written). Or a usage limit with `Enforcement: REFUSE` refuses an entry that would take its Used past its Amount (`usage-limit-reached`, with `LimitID`, `Remaining`, `Amount`, `PeriodStart` and `ResetsAt`; nothing of the entry is written; a batch lists each refused entry in `errors` and every entry's outcome in `Entries`).",
  },
  410: {
    name: 'Gone',
    description:
      'A changes cursor that is older than the 7 days changes are kept, or that is not a cursor of these changes (`cursor-expired`): read availability in full and follow the changes from a new cursor.',
  },
  413: { name: 'PayloadTooLarge', description: 'A request body over 6 MB.' },
  415: { name: 'UnsupportedMediaType', description: 'A body sent without a JSON Content-Type.' },
  422: {
    name: 'ValidationFailed',
    description:
      "A missing or invalid query parameter, body field or Idempotency-Key (also a key sent again with a different request), or a limit passed (a new meter past the operator's 50, a summary past 30,000 aggregates, a usage limit past the operator's 50 or the meter's 5); `detail` names the field and the rule. Nothing is written.",
  },
  429: { name: 'TooManyRequests', description: "Over the stage's throttle." },
  500: { name: 'InternalError', description: 'Anything unexpected; safe to retry.' },
  503: {
    name: 'Busy',
    description:
      'Other requests kept writing the same items (a timeslot, a meter, a booking) through every retry the service made, or DynamoDB throttled it: `Retry-After` says when to send the same request again, safely (with an Idempotency-Key where the route takes one).',
  },
  504: { name: 'GatewayTimeout', description: 'The function did not answer in time; safe to retry with an Idempotency-Key.' },
};

export function problemCatalog(): Record<number, ProblemStatus> {
  const examples = [
    errorExample(new ValidationError(ACTIVITY_ID_RULE, { field: 'ActivityID' }), { path: new Set(['ActivityID']) }),
    errorExample(new MalformedJsonError()),
    gatewayExample('UNAUTHORIZED'),
    gatewayExample('ACCESS_DENIED'),
    errorExample(BuiltInEntryError.of({ ...example.usageEntry, Meter: 'order-completed' })),
    errorExample(activityNotFound('s_kayak99')),
    errorExample(insufficientCapacity({ Date: example.booking.Date, Time: example.booking.Time, Participants: 2 }, 1)),
    errorExample(HoldExpiredError.of(example.heldBooking)),
    errorExample(BookingCancelledError.of({ ...example.booking, CancelledAt: '2026-06-20T09:20:44.001Z' })),
    errorExample(TimeslotStartedError.of(example.booking, 'cancelled')),
    errorExample(CursorExpiredError.because('is older than the 7 days changes are kept'), { query: new Set(['since']) }),
    errorExample(
      entryRefused(
        { Meter: example.usageLimit.Meter, Usage: 30000 },
        {
          limitId: example.usageLimit.LimitID,
          amount: 150_000_000_000n,
          remaining: 28_499_500_000n,
          period: {
            start: example.usageLimit.AppliesFrom,
            end: example.usageLimitStatus.ResetsAt,
            from: '2026-03-01',
            kind: 'MONTH',
            timeZone: 'Europe/Lisbon',
          },
        },
      ),
    ),
    errorExample(
      HoldCapError.of({
        keyId: example.booking.PartnerKeyID as string,
        timeslot: example.booking,
        held: DEFAULT_HOLD_CAPS.perTimeslot - 1,
        cap: DEFAULT_HOLD_CAPS.perTimeslot,
        asked: 2,
      }),
    ),
    gatewayExample('REQUEST_TOO_LARGE'),
    errorExample(new UnsupportedMediaTypeError()),
    errorExample(new ValidationError(customerSchema.properties.Phone.errorMessage, { field: 'Customer.Phone' })),
    gatewayExample('THROTTLED'),
    gatewayExample('DEFAULT_5XX'),
    BUSY,
    gatewayExample('INTEGRATION_TIMEOUT'),
  ];
  return Object.fromEntries(
    Object.entries(DESCRIPTIONS).map(([status, description]) => [
      status,
      {
        ...description,
        examples: examples.filter((problem) => problem.status === Number(status)).map(({ kind, detail }) => ({ kind, detail })),
      },
    ]),
  );
}
