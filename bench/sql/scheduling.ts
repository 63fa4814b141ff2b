import type { SqlCase } from './case';

/** scheduling's kept raw statements (cases named `scheduling.<what>`), each against its best ORM form. */
export const schedulingCases: SqlCase[] = [];
