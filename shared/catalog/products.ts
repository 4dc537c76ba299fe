import type { Caller } from '../core/caller';
import { InvalidRequestError, NotFoundError } from '../core/errors';
import { toProduct, type ProductItem } from './model';
import type { Product, ResolveQuery } from './schemas';
import { getProduct, getProductByProductId, queryVisibleProducts } from './repository';

export const activityNotFound = (activityId: string) =>
  new NotFoundError(`No activity has ActivityID '${activityId}'`, { subject: 'product', value: activityId });

const byName = (a: { Name: string }, b: { Name: string }) => a.Name.localeCompare(b.Name);

/** The operator's shopfront: visible products, `name` a case-insensitive partial match. */
export async function listProducts(caller: Caller, name?: string): Promise<Product[]> {
  const items = await queryVisibleProducts(caller.operatorId, name?.trim() || undefined);
  return items.sort(byName).map((item) => toProduct(item as ProductItem, caller.timeZone));
}

/** The shopfront's products as stored, sorted by name, for a face that shows more of them than the Product record. */
export async function shopfrontItems(caller: Caller): Promise<Omit<ProductItem, 'Questions'>[]> {
  return (await queryVisibleProducts(caller.operatorId)).sort(byName);
}

/** One product by its numeric ProductID or by its exact name (case-insensitive); exactly one must be given. */
export async function resolveProduct(caller: Caller, query: ResolveQuery): Promise<Product> {
  const hasId = query.ID !== undefined;
  const hasName = query.Name !== undefined;
  if (hasId === hasName) {
    throw new InvalidRequestError("Give exactly one of 'ID' and 'Name'");
  }
  const item = hasId
    ? await getProductByProductId(caller.operatorId, Number(query.ID))
    : await findByExactName(caller.operatorId, query.Name as string);
  if (!item?.Visible) {
    throw new NotFoundError(hasId ? `No product has ID ${query.ID}` : `No product is named '${query.Name}'`);
  }
  return toProduct(item, caller.timeZone);
}

async function findByExactName(operatorId: string, name: string): Promise<ProductItem | undefined> {
  const wanted = name.trim().toLowerCase();
  const candidates = await queryVisibleProducts(operatorId, wanted);
  return candidates.find((item) => item.NameLower === wanted) as ProductItem | undefined;
}

/**
 * The product behind an ActivityID, as the partner API sees it: hidden
 * products are not in the shopfront, so they are as unknown as missing ones.
 */
export async function requireActivity(caller: Caller, activityId: string): Promise<ProductItem> {
  const item = await getProduct(caller.operatorId, activityId);
  if (!item?.Visible) throw activityNotFound(activityId);
  return item;
}
