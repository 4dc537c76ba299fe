/**
 * What a latency scenario is: one call through the hosted API, and beside it
 * the bare DynamoDB calls that endpoint makes, so that the cost the service
 * adds can be read as a ratio measured in the same run.
 */
export interface BenchContext {
  operatorId: string;
  /** The ID of the bench API key: the partner, for bookings. */
  keyId: string;
  /** The operator's time zone: booking dates and times are its wall clock. */
  timeZone: string;
  /** The product with a timeslot at each of four times on every day from firstDate for SEEDED_DAYS days. */
  activityId: string;
  /** The first day with timeslots: tomorrow in the operator's time zone. */
  firstDate: string;
  /** An authorised GET through the local host over kept-alive connections; resolves to the body, rejects unless 200. */
  get(path: string, headers?: Record<string, string>): Promise<string>;
  /** An authorised JSON POST through the local host, the same way; rejects unless 201. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<string>;
  /** An authorised JSON POST of an action on a resource (confirm, cancel); rejects unless 200. */
  postAction(path: string, body: unknown, headers?: Record<string, string>): Promise<string>;
}

export interface Scenario {
  name: string;
  /** One call through the hosted API over HTTP: gateway, authorizer (cached), handler, DynamoDB. */
  service(context: BenchContext): Promise<unknown>;
  /** The DynamoDB calls that endpoint makes, issued from the bench process with the service's client configuration. */
  bare(context: BenchContext): Promise<unknown>;
  /** Untimed set-up before the scenario's first call, such as reading what the bare side builds its items from. */
  prepare?(context: BenchContext): Promise<void>;
  /** Printed under the tables when the bare side is not every DynamoDB call the service makes: what it leaves out. */
  bareNote?: string;
}
