// contracts of the inventory counts area (filled by its increment)
export const inventoryCountsOperations = {};
