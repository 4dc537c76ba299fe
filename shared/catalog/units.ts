import { NotFoundError, UnprocessableError, ValidationError } from '../core/errors';
import { DEFAULT_OPTION_ID } from './constants';
import { toUnit, type ProductItem } from './model';
import type { Money, Unit } from './schemas';

/**
 * Units (ticket types): what a booking is made of. A product the catalogue
 * gives no units has one, an adult at PricePerParticipant, so every product
 * is booked the same way; a booking's places are its units' pax, and its
 * price the sum of its units' prices at the moment it was made.
 */

/** The unit of a product whose catalogue names none. */
export const DEFAULT_UNIT_ID = 'adult';

export function unitsOf(product: Pick<ProductItem, 'Units' | 'PricePerParticipant'>): Required<Unit>[] {
  const units = product.Units ?? [{ UnitID: DEFAULT_UNIT_ID, Name: 'Adult', Type: 'ADULT', Price: product.PricePerParticipant }];
  return units.map((unit) => toUnit(unit) as Required<Unit>);
}

/** A booked unit: how many, at what price each. */
export interface BookedUnit {
  UnitID: string;
  Quantity: number;
  UnitPrice: Money;
}

/** Counts per unit of a list of unit IDs, in order of first appearance. */
export function countUnits(unitIds: readonly string[]): { UnitID: string; Quantity: number }[] {
  const counts = new Map<string, number>();
  for (const id of unitIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts].map(([UnitID, Quantity]) => ({ UnitID, Quantity }));
}

export interface UnitRequest {
  UnitID: string;
  Quantity: number;
}

/**
 * Checks a party against the product's units and limits, and prices it:
 * every unit known, each unit's quantity within its limits, every unit's
 * companions present, and the places (pax) within the activity's maximum.
 * `fieldOf` names the request field of the i-th requested unit.
 */
export function priceUnits(
  product: Pick<ProductItem, 'ActivityID' | 'Units' | 'PricePerParticipant' | 'MaxParticipantsPerBooking'>,
  requested: readonly UnitRequest[],
  fieldOf: (index: number) => string,
): { units: BookedUnit[]; participants: number } {
  if (!requested.length) throw new UnprocessableError('must hold at least one unit', { field: fieldOf(-1) });
  const units = new Map(unitsOf(product).map((unit) => [unit.UnitID, unit]));
  let participants = 0;
  const booked = requested.map((request, index) => {
    const unit = units.get(request.UnitID);
    if (!unit) {
      throw new ValidationError(`'${request.UnitID}' is not a unit of activity ${product.ActivityID}`, {
        field: fieldOf(index),
        subject: 'unit',
        value: request.UnitID,
      });
    }
    if (request.Quantity < (unit.MinQuantity ?? 1) || request.Quantity > (unit.MaxQuantity ?? Infinity)) {
      const range = unit.MaxQuantity === undefined ? `at least ${unit.MinQuantity}` : `${unit.MinQuantity ?? 1} to ${unit.MaxQuantity}`;
      throw new UnprocessableError(`holds ${request.Quantity} of unit '${unit.UnitID}'; a booking holds ${range} of it`, {
        field: fieldOf(index),
      });
    }
    participants += request.Quantity * unit.PaxCount;
    return { UnitID: unit.UnitID, Quantity: request.Quantity, UnitPrice: unit.Price };
  });
  const present = new Set(booked.map((unit) => unit.UnitID));
  booked.forEach((unit, index) => {
    const companions = units.get(unit.UnitID)?.AccompaniedBy ?? [];
    if (companions.length && !companions.some((companion) => present.has(companion))) {
      throw new UnprocessableError(`unit '${unit.UnitID}' must be booked with one of: ${companions.join(', ')}`, { field: fieldOf(index) });
    }
  });
  if (participants > product.MaxParticipantsPerBooking) {
    throw new UnprocessableError(
      `is ${participants} place(s); activity ${product.ActivityID} takes at most ${product.MaxParticipantsPerBooking} per booking`,
      { field: 'Participants' },
    );
  }
  return { units: booked, participants };
}

/** The price of a party: each unit's quantity at its price, in the product's one currency. */
export function totalOf(units: readonly BookedUnit[], currency: string): Money {
  return { Amount: units.reduce((sum, unit) => sum + unit.Quantity * unit.UnitPrice.Amount, 0), Currency: currency };
}

/** Products have one option; any other ID is unknown. */
export function requireOption(optionId: string): void {
  if (optionId !== DEFAULT_OPTION_ID) {
    throw new NotFoundError(`No option has ID '${optionId}'; every product has the one option '${DEFAULT_OPTION_ID}'`, {
      subject: 'option',
      value: optionId,
    });
  }
}

/** The places a party of units takes (each unit known to the product; limits are a booking's, not checked here). */
export function paxOf(product: Pick<ProductItem, 'ActivityID' | 'Units' | 'PricePerParticipant'>, units: readonly UnitRequest[]): number {
  const known = new Map(unitsOf(product).map((unit) => [unit.UnitID, unit]));
  return units.reduce((sum, request) => {
    const unit = known.get(request.UnitID);
    if (!unit) {
      throw new ValidationError(`'${request.UnitID}' is not a unit of activity ${product.ActivityID}`, {
        field: 'Units',
        subject: 'unit',
        value: request.UnitID,
      });
    }
    return sum + request.Quantity * unit.PaxCount;
  }, 0);
}
