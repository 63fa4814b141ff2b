/** MikroORM entities of the transfers area (filled by its increment). */
export const transfersEntities = [];
