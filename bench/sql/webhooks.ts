import type { SqlCase } from './case';

/** webhooks's kept raw statements (cases named `webhooks.<what>`), each against its best ORM form. */
export const webhooksCases: SqlCase[] = [];
