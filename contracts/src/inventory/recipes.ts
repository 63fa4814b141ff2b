// contracts of the inventory recipes area (filled by its increment)
export const inventoryRecipesOperations = {};
