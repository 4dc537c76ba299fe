import {
  zAvailability,
  zAvailabilityCalendar,
  zBooking,
  zErrorBadRequest,
  zErrorInvalidAvailabilityId,
  zErrorInvalidBookingUuid,
  zErrorInvalidOptionId,
  zErrorInvalidProductId,
  zErrorInvalidUnitId,
  zErrorUnprocessableEntity,
  zSupplier,
} from '@octocloud/types';

/** OCTo's own zod schema of each answer: the route's success, and each error code's body. */
export const octoTypes: Record<string, { parse(value: unknown): unknown }> = {
  'octo-get-supplier': zSupplier,
  'octo-availability-calendar': zAvailabilityCalendar.array(),
  'octo-check-availability': zAvailability.array(),
  'octo-reserve-booking': zBooking,
  'octo-list-bookings': zBooking.array(),
  'octo-get-booking': zBooking,
  'octo-update-booking': zBooking,
  'octo-delete-booking': zBooking,
  'octo-confirm-booking': zBooking,
  'octo-extend-booking': zBooking,
  'octo-cancel-booking': zBooking,
};
export const errorTypes: Record<string, { parse(value: unknown): unknown }> = {
  INVALID_PRODUCT_ID: zErrorInvalidProductId,
  INVALID_OPTION_ID: zErrorInvalidOptionId,
  INVALID_UNIT_ID: zErrorInvalidUnitId,
  INVALID_AVAILABILITY_ID: zErrorInvalidAvailabilityId,
  INVALID_BOOKING_UUID: zErrorInvalidBookingUuid,
  UNPROCESSABLE_ENTITY: zErrorUnprocessableEntity,
  BAD_REQUEST: zErrorBadRequest,
};
