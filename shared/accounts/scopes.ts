/** Permissions an API key can carry; each route requires exactly one of them. */
export const SCOPES = {
  ota: 'Partner API: products, availability, questions and bookings',
  'usage:read': 'Read usage summaries',
  'usage:write': 'Record usage entries',
  'bookings:read': "Read the operator's bookings of every channel and its manifest",
  'bookings:write': "Cancel the operator's bookings of every channel",
  'availability:write':
    "Read and change the operator's timeslots: capacity, closing, one-off timeslots, cancelling a timeslot with its bookings",
} as const;

export type Scope = keyof typeof SCOPES;

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);
