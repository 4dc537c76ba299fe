/**
 * What a latency scenario is: one call through the hosted API, and beside it
 * the bare DynamoDB calls that endpoint makes, so that the cost the service
 * adds can be read as a ratio measured in the same run.
 */
export interface BenchContext {
  operatorId: string;
  /** The product with a timeslot at each of four times on every day from firstDate for SEEDED_DAYS days. */
  activityId: string;
  /** The first day with timeslots: tomorrow in the operator's time zone. */
  firstDate: string;
  /** An authorised GET through the local host over kept-alive connections; resolves to the body, rejects unless 200. */
  get(path: string): Promise<string>;
}

export interface Scenario {
  name: string;
  /** One call through the hosted API over HTTP: gateway, authorizer (cached), handler, DynamoDB. */
  service(context: BenchContext): Promise<unknown>;
  /** The DynamoDB calls that endpoint makes, issued from the bench process with the service's client configuration. */
  bare(context: BenchContext): Promise<unknown>;
}
