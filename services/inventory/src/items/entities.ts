/** MikroORM entities of the items area (filled by its increment). */
export const itemsEntities = [];
