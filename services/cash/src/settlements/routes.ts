import { assertLocationInReach, decodeCursor, pageLimit, reachableLocationIds, route, sqlQuery, toPage, type RouteDef, type ServiceRuntime, assertBatchSize } from '@bop/shared';
import type { CashConfig } from '../config';
import { settlementColumns, settlementDto, type SettlementRow } from './dto';
import { storeSettlements } from './store';

/** POST /cash/settlements (spec: ingestion rules 1–5 and 7; Batch result), GET /cash/settlements (supplement). */
export const settlementsRoutes = (svc: ServiceRuntime<CashConfig>): RouteDef[] => [
  route('POST /cash/settlements', async (ctx) => {
    const { source, settlements: records } = ctx.body;
    const max = svc.config.API_MAX_BATCH_SIZE;
    assertBatchSize(records, max, 'settlements');
    const result = await storeSettlements(ctx.em, { source, records, actor: ctx.principal, endpoint: 'POST /cash/settlements' });
    return { status: 202, body: result };
  }),

  route('GET /cash/settlements', async (ctx) => {
    const { limit, cursor, locationId, from, matchStatus } = ctx.query;
    const reach = ctx.reach();
    const reachable = reachableLocationIds(reach);
    if (locationId) assertLocationInReach(reach, locationId);
    const where: string[] = [];
    const params: unknown[] = [];
    const filter = (sql: string, value: unknown) => {
      where.push(sql);
      params.push(value);
    };
    const after = decodeCursor(cursor);
    if (after) filter('s."id" > ?', after);
    if (locationId) filter('s."location_id" = ?', locationId);
    else if (reachable) filter('s."location_id" = any(array(select jsonb_array_elements_text(?::jsonb)))', JSON.stringify(reachable));
    if (from) filter('s."paid_on" >= ?::date', from);
    if (matchStatus) filter('s."match_status" = ?', matchStatus);
    const n = pageLimit(limit);
    const rows = await sqlQuery<SettlementRow>(
      ctx.em,
      `select ${settlementColumns} from "cash"."settlements" s ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by s."id" limit ?`,
      [...params, n + 1],
    );
    return { body: toPage(rows, n, settlementDto) };
  }),
];
