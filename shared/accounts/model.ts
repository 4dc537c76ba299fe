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
}
