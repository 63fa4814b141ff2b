import type { SqlCase } from './case';

/** purchasing's kept raw statements (cases named `purchasing.<what>`), each against its best ORM form. */
export const purchasingCases: SqlCase[] = [];
