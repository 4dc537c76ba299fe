import { randomUUID } from 'node:crypto';
import type { ProductItem } from '../catalog/model';
import { countUnits, priceUnits, totalOf } from '../catalog/units';
import { UnprocessableError, ValidationError } from '../core/errors';
import type { BookingItem, UnitItem } from './model';

/**
 * Unit items: a reservation's party, one item per booked unit, each with a
 * UUID (the partner's own when it sent one, lower-cased; else one made here).
 * The items are counted into units and priced by the catalogue's one rule
 * (priceUnits), so a party of unit items costs what the same party of units does.
 */

export interface RequestedUnitItem {
  UnitID: string;
  UUID?: string;
}

/** Prices a party of unit items and gives each item a UUID; an item sent without one keeps that of an item in `keep` it replaces. */
export function party(product: ProductItem, items: RequestedUnitItem[] | undefined, keep: readonly UnitItem[] = []) {
  if (!items?.length) throw new UnprocessableError('must hold at least one unit item', { field: 'UnitItems' });
  const counted = countUnits(items.map((item) => item.UnitID));
  const { units, participants } = priceUnits(product, counted, (index) =>
    index < 0 ? 'UnitItems' : `UnitItems[${items.findIndex((item) => item.UnitID === counted[index].UnitID)}].UnitID`,
  );
  // An item sent without a UUID keeps the UUID of an item of the same unit it replaces, one not named by another item.
  const named = new Set(items.flatMap((item) => (item.UUID ? [item.UUID.toLowerCase()] : [])));
  const reusable = keep.filter((old) => !named.has(old.UUID));
  const unitItems = items.map((item): UnitItem => {
    if (item.UUID) return { UUID: item.UUID.toLowerCase(), UnitID: item.UnitID };
    const at = reusable.findIndex((old) => old.UnitID === item.UnitID);
    const kept = at < 0 ? undefined : reusable.splice(at, 1)[0];
    return { UUID: kept?.UUID ?? randomUUID(), UnitID: item.UnitID };
  });
  const repeated = unitItems.findIndex((item, index) => unitItems.findIndex((other) => other.UUID === item.UUID) !== index);
  if (repeated >= 0) throw new ValidationError('repeats the UUID of another unit item', { field: `UnitItems[${repeated}].UUID` });
  return { units, participants, unitItems };
}

/** A new party of unit items, priced at the product's prices now (the items kept keep their UUIDs). */
export function repriced(product: ProductItem, current: BookingItem, items: RequestedUnitItem[]): Partial<BookingItem> {
  const { units, participants, unitItems } = party(product, items, current.UnitItems);
  return {
    Units: units,
    Participants: participants,
    UnitItems: unitItems,
    TotalPrice: totalOf(units, product.PricePerParticipant.Currency),
  };
}
