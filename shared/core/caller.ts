/** Who is calling: the operator a key belongs to, the key itself, what it may do, and the operator's time zone. */
export interface Caller {
  operatorId: string;
  keyId: string;
  scopes: string[];
  /** The operator's IANA time zone, in which booking dates and times are expressed. */
  timeZone: string;
}
