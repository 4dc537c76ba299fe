import { createHash } from 'node:crypto';
import { requireOperator } from '../accounts/operators';
import { toProduct, type ProductItem } from '../catalog/model';
import type { Product } from '../catalog/schemas';
import { config } from '../core/config';
import { RETRY, retrying } from '../core/retry';
import { tell } from './fan-out';
import { getProductAnnouncement, putProductAnnouncement } from './repository';

/**
 * A product's write, from the table's stream: `product.changed` (and OCTo's
 * PRODUCT_UPDATE) when what partners are told of it changed (its record as
 * the partner API shows it: name, price, units, ...) or it was shown or
 * hidden. A hidden product's changes are not told, only that it was hidden.
 * The catalogue import writes every product each time; a write that changes
 * nothing partners see is not announced. Ordered by the product's Sequence:
 * a write handed over again, or after a later one, changes nothing.
 */
export type ProductChange =
  | (Product & { Visible: true; ChangedAt: string; Sequence: number })
  | { ProductID: number; ActivityID: string; Visible: false; ChangedAt: string; Sequence: number };

export type ProductOutcome = 'announced' | 'unchanged' | 'stale';

/** What partners are told of a product, OCTo's start times included (availabilityLocalStartTimes). */
const digestOf = (told: Product, product: ProductItem) =>
  createHash('sha256')
    .update(JSON.stringify([told, product.StartTimes ?? []]), 'utf8')
    .digest('hex');

export function productWritten(operatorId: string, product: ProductItem, now: Date = config().clock()): Promise<ProductOutcome> {
  const sequence = product.Sequence;
  if (sequence === undefined) return Promise.resolve('stale');
  return retrying(
    'Announcing a product change',
    async () => {
      const record = await getProductAnnouncement(operatorId, product.ActivityID);
      if (record && record.Sequence >= sequence) return 'stale';
      const told = toProduct(product, (await requireOperator(operatorId)).TimeZone);
      const digest = digestOf(told, product);
      const wasVisible = record?.Visible === true;
      const news = product.Visible ? !wasVisible || digest !== record?.Digest : wasVisible;
      if (news) {
        const changedAt = now.toISOString();
        const data: ProductChange = product.Visible
          ? { ...told, Visible: true, ChangedAt: changedAt, Sequence: sequence }
          : { ProductID: product.ProductID, ActivityID: product.ActivityID, Visible: false, ChangedAt: changedAt, Sequence: sequence };
        await tell(
          {
            operatorId,
            id: `product#${product.ActivityID}#${sequence}`,
            webhook: { type: 'product.changed', data },
            octo: { type: 'PRODUCT_UPDATE', data: { productId: product.ActivityID } },
          },
          now,
        );
      }
      const next = { Version: (record?.Version ?? 0) + 1, Sequence: sequence, Digest: digest, Visible: product.Visible };
      if (!(await putProductAnnouncement(operatorId, product.ActivityID, next, record?.Version ?? 0))) return RETRY;
      return news ? 'announced' : 'unchanged';
    },
    { attempts: 25, capMs: 200 },
  );
}
