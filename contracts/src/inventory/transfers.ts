// contracts of the inventory transfers area (filled by its increment)
export const inventoryTransfersOperations = {};
