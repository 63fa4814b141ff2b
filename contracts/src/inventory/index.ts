import { defineOperations } from '../operation-types';
import { inventoryItemsOperations } from './items';
import { inventoryStockOperations } from './stock';
import { inventoryRecipesOperations } from './recipes';
import { inventoryCountsOperations } from './counts';
import { inventoryTransfersOperations } from './transfers';

export * from './common';
export * from './items';
export * from './stock';
export * from './recipes';
export * from './counts';
export * from './transfers';
export * from './internal';

export const inventoryOperations = defineOperations({
  ...inventoryItemsOperations,
  ...inventoryStockOperations,
  ...inventoryRecipesOperations,
  ...inventoryCountsOperations,
  ...inventoryTransfersOperations,
});
