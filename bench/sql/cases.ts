import type { SqlCase } from './case';
import { cashCases } from './cash';

/** Every case of bench:sql, service by service (each file's cases: `<service>.<what>`). */
export const allCases: SqlCase[] = [...cashCases];
