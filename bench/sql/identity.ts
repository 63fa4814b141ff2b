import type { SqlCase } from './case';

/** identity's kept raw statements (cases named `identity.<what>`), each against its best ORM form. */
export const identityCases: SqlCase[] = [];
