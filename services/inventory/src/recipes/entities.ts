/** MikroORM entities of the recipes area (filled by its increment). */
export const recipesEntities = [];
