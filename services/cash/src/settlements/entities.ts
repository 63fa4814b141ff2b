/** MikroORM entities of the settlements area: none (cash.settlements is read and written set-based with SQL). */
export const settlementsEntities = [] as const;
