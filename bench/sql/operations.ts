import type { SqlCase } from './case';

/** operations's kept raw statements (cases named `operations.<what>`), each against its best ORM form. */
export const operationsCases: SqlCase[] = [];
