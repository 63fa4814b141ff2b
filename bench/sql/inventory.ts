import type { SqlCase } from './case';

/** inventory's kept raw statements (cases named `inventory.<what>`), each against its best ORM form. */
export const inventoryCases: SqlCase[] = [];
