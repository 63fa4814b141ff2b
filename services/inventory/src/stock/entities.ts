/** MikroORM entities of the stock area (filled by its increment). */
export const stockEntities = [];
