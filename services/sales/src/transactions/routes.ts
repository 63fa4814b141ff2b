import { mapPage, route, type RouteDef, type ServiceRuntime, locationFilter } from '@bop/shared';
import { listTransactions } from './store';
import { transactionDto } from './dto';

export const transactionRoutes = (_svc?: ServiceRuntime<any>): RouteDef[] => [
  route('GET /sales/transactions', async (ctx) => {
    const { limit, cursor, source, updatedSince, locationId, businessDayFrom, businessDayTo } = ctx.query;
    const inLocations = locationFilter(ctx.reach(), locationId);
    return { body: mapPage(await listTransactions(ctx, { source, inLocations, businessDayFrom, businessDayTo }, { limit, cursor, updatedSince }), transactionDto) };
  }),
];
