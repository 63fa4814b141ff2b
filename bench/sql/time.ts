import type { SqlCase } from './case';

/** time's kept raw statements (cases named `time.<what>`), each against its best ORM form. */
export const timeCases: SqlCase[] = [];
