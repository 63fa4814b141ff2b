// contracts of the inventory items area (filled by its increment)
export const inventoryItemsOperations = {};
