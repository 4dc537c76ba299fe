import type { Scope } from './scopes';

/** Operators and their API keys, as stored. */

export interface Operator {
  OperatorID: string;
  Name: string;
  /** IANA zone in which the operator's booking dates and times are expressed. */
  TimeZone: string;
  CreatedAt: string;
}

/** What the authorizer needs about a key; stored under the SHA-256 of its secret. */
export interface ApiKeyRecord {
  KeyID: string;
  OperatorID: string;
  Scopes: Scope[];
  Name: string;
  Status: 'ACTIVE' | 'REVOKED';
  CreatedAt: string;
  RevokedAt?: string;
  /** Requests per second the key's token bucket refills with; the default's when absent (keys made before limits). */
  RateLimit?: number;
  /** The bucket's size: how many requests the key may send at once. */
  BurstLimit?: number;
  /**
   * The value of the key's API Gateway API key, which the authorizer hands to
   * API Gateway so that the key's usage plan throttles it. Not a credential:
   * with the API's key source AUTHORIZER, a client cannot present it.
   */
  UsageIdentifierKey?: string;
  /** The ID of that API Gateway API key, once the admin CLI has made it (--aws). */
  ApiGatewayKeyId?: string;
  /** Places the key may hold at once on one timeslot; the default's when absent (keys made before caps). */
  MaxHeldPlacesPerTimeslot?: number;
  /** Places the key may hold at once in all. */
  MaxHeldPlaces?: number;
}

/** A key's token bucket: `rateLimit` requests per second on average, `burstLimit` at once. */
export interface KeyLimits {
  rateLimit: number;
  burstLimit: number;
}
