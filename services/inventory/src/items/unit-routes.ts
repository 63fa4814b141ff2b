import { assertCompanyWide, decodeCursor, pageLimit, route, toPage, type RouteDef } from '@bop/shared';
import { unitDto } from './dto';
import { createUnit, listUnits, unitConflictFor } from './unit-store';

/** units of measure (supplement: GET/POST /units-of-measure) */
export const unitRoutes = (): RouteDef[] => [
  route('GET /units-of-measure', async (ctx) => {
    const { limit, cursor, itemId, baseUnit } = ctx.query;
    const after = decodeCursor(cursor);
    const n = pageLimit(limit);
    const rows = await listUnits(ctx, { after, itemId, baseUnit, limit: n });
    return { body: toPage(rows, n, unitDto) };
  }),

  route(
    'POST /units-of-measure',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Units of measure');
      const row = await createUnit(ctx, ctx.body);
      return { status: 201, body: unitDto(row) };
    },
    { conflict: unitConflictFor },
  ),
];
