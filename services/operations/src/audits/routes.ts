import { route, type RouteDef } from '@bop/shared';
import { listAudits, readAudit } from './store';

/** Scored audits (spec: `GET /audits`; supplement: `GET /audits/{id}` with section scores and failed items), by location. */
export const auditRoutes = (): RouteDef[] => [
  route('GET /audits', async (ctx) => {
    return { body: await listAudits(ctx, ctx.query) };
  }),

  route('GET /audits/{id}', async (ctx) => {
    return { body: await readAudit(ctx, ctx.params.id) };
  }),
];
