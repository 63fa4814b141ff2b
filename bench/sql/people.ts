import type { SqlCase } from './case';

/** people's kept raw statements (cases named `people.<what>`), each against its best ORM form. */
export const peopleCases: SqlCase[] = [];
