/** MikroORM entities of the items area: none, its tables are read and written with SQL (`sqlQuery`, see store.ts). */
export const itemsEntities = [];
