import { decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import { listTransactions } from './store';
import { transactionDto } from './dto';

export const transactionRoutes = (_svc?: ServiceRuntime<any>): RouteDef[] => [
  route('GET /sales/transactions', async (ctx) => {
    const { limit, cursor, source, updatedSince, locationId, businessDayFrom, businessDayTo } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    const n = pageLimit(limit);
    const rows = await listTransactions(ctx, { after: decodeCursor(cursor), source, updatedSince, inLocations, businessDayFrom, businessDayTo }, n + 1);
    return { body: toPage(rows, n, transactionDto) };
  }),
];
