import { DepartmentsResolveRequest, type DepartmentsResolveAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { resolveDepartments } from './store';

/**
 * Organization's internal read of departments for the people service's replica (read-through). System
 * principal only. A read sent as POST (a body of ids): it writes nothing, so it holds no transaction.
 */
export const departmentInternalRoutes = (): InternalRouteDef[] => [
  internalRoute(
    'POST /internal/departments:resolve',
    { body: DepartmentsResolveRequest },
    async (ctx) => {
      const rows = await resolveDepartments(ctx, ctx.body.ids);
      const answer: DepartmentsResolveAnswer = {
        data: rows.map((d) => ({ id: d.id, locationId: d.locationId ?? null, status: d.status, updatedAt: d.updatedAt.toISOString() })),
      };
      return ok(answer);
    },
    { transaction: false },
  ),
];
