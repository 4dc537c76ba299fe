/**
 * The catalogue's constants: they import nothing, the schemas are written on
 * them (schemas.ts) and the stored shapes on the schemas (model.ts).
 */

export const ACTIVITY_ID_PATTERN = '^s_[A-Za-z0-9]{1,64}$';
export const ACTIVITY_ID_RULE = "must be 's_' followed by 1 to 64 letters or digits";
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export const QUESTION_TYPES = ['TEXT', 'YES_NO', 'SINGLE_CHOICE', 'DATE', 'FILE_UPLOAD'] as const;

/** How a product is sold: at start times (a departure), or as a day ticket for the opening hours of a day. */
export const AVAILABILITY_TYPES = ['START_TIME', 'OPENING_HOURS'] as const;
export type AvailabilityType = (typeof AVAILABILITY_TYPES)[number];

/** The kinds of unit (ticket type) a product sells, as OCTo names them. */
export const UNIT_TYPES = ['ADULT', 'YOUTH', 'CHILD', 'INFANT', 'FAMILY', 'SENIOR', 'STUDENT', 'MILITARY', 'OTHER'] as const;

/**
 * A day ticket's timeslot: one per day, stored at this time, whatever its
 * opening hours (so a change of hours updates the same slot and keeps its bookings).
 */
export const DAY_TICKET_TIME = '00:00';

/** Every product has one option; OCTo addresses it by this ID. */
export const DEFAULT_OPTION_ID = 'DEFAULT';

/** What a unit's ID may be: it names the unit in bookings (OCTo `unitId`, the marketplace's `Units[].UnitID`). */
export const UNIT_ID_PATTERN = '^[a-z0-9_-]{1,64}$';

/** The most places a timeslot may have (and a booking may take): the catalogue's, the operator's changes' and the party's limit. */
export const MAX_CAPACITY = 10_000;
