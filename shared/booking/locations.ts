/** Where a partner reads a booking back: the Location of its 201. */
export const bookingLocation = (reference: string): string => `/api/v2/ota/marketplace/booking/${reference}`;
