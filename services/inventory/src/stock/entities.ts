/**
 * MikroORM entities of the stock area: none. Its tables (stock_documents, and the ledger's
 * stock_levels and stock_movements) are written in bulk with SQL, as ledger/post.ts does.
 */
export const stockEntities = [];
