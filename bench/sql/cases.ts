import type { SqlCase } from './case';
import { cashCases } from './cash';
import { identityCases } from './identity';
import { insightsCases } from './insights';
import { inventoryCases } from './inventory';
import { kitCases } from './kit';
import { operationsCases } from './operations';
import { peopleCases } from './people';
import { purchasingCases } from './purchasing';
import { salesCases } from './sales';
import { schedulingCases } from './scheduling';
import { timeCases } from './time';
import { webhooksCases } from './webhooks';

/** Every case of bench:sql, service by service (each file's cases: `<service>.<what>`). */
export const allCases: SqlCase[] = [...cashCases, ...identityCases, ...insightsCases, ...inventoryCases, ...kitCases, ...operationsCases, ...peopleCases, ...purchasingCases, ...salesCases, ...schedulingCases, ...timeCases, ...webhooksCases];
