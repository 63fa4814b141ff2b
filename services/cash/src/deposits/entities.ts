/** MikroORM entities of the deposits area: none — deposits and bank transactions are read and matched with SQL (match.ts, read.ts). */
export const depositsEntities = [] as const;
