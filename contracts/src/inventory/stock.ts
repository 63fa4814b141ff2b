// contracts of the inventory stock area (filled by its increment)
export const inventoryStockOperations = {};
