import type { SqlCase } from './case';

/** sales's kept raw statements (cases named `sales.<what>`), each against its best ORM form. */
export const salesCases: SqlCase[] = [];
