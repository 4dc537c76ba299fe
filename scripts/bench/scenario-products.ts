import { queryVisibleProducts } from '../../shared/catalog/repository';
import type { Scenario } from './scenario';

export const listProductsScenario: Scenario = {
  name: 'GET products',
  service: ({ get }) => get('/api/v2/ota/marketplace/products'),
  bare: ({ operatorId }) => queryVisibleProducts(operatorId),
};
