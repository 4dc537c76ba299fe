/** The places one key may hold at once (held bookings, not yet confirmed): on any one timeslot, and in all. */
export interface HoldCaps {
  perTimeslot: number;
  total: number;
}

/** Who is calling: the operator a key belongs to, the key itself, what it may do, and the operator's time zone. */
export interface Caller {
  operatorId: string;
  keyId: string;
  scopes: string[];
  /** The operator's IANA time zone, in which booking dates and times are expressed. */
  timeZone: string;
  /** The key's caps on held places, as the authorizer read them; the defaults (shared/accounts/hold-caps.ts) when absent. */
  holdCaps?: HoldCaps;
}
