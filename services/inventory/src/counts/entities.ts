/** MikroORM entities of the counts area (filled by its increment). */
export const countsEntities = [];
