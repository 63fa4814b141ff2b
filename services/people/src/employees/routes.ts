import { route, type RouteDef, type ServiceClient } from '@bop/shared';
import { peopleSettings } from '../settings/company-settings';
import { archiveEmployee, createEmployee, getEmergencyContacts, getEmployee, listEmployees, patchEmployee, replaceEmergencyContacts, uniqueConflict, type PositionsList } from './store';
import { rehireEmployee, terminateEmployee, transferEmployee } from './lifecycle-store';
import { putEmployeeByExternalId } from './external-store';

/** The company's positions (company settings), read when a write needs them. */
export const positionsOf = (ctx: { services: ServiceClient; requestId: string }): PositionsList => async () => (await peopleSettings(ctx.services, ctx.requestId))?.positions ?? null;

export const employeeRoutes = (): RouteDef[] => [
  route('GET /employees', async (ctx) => {
    return { body: await listEmployees(ctx, ctx.query) };
  }),

  route(
    'POST /employees',
    async (ctx) => {
      return { status: 201, body: await createEmployee(ctx, ctx.body, positionsOf(ctx)) };
    },
    { conflict: uniqueConflict },
  ),

  route('GET /employees/external/{externalId}', async (ctx) => {
    return { body: await getEmployee(ctx, { externalId: ctx.params.externalId }) };
  }),

  route(
    'PUT /employees/external/{externalId}',
    async (ctx) => {
      return await putEmployeeByExternalId(ctx, ctx.params.externalId, ctx.body, positionsOf(ctx));
    },
    { conflict: uniqueConflict },
  ),

  route('GET /employees/{id}', async (ctx) => {
    return { body: await getEmployee(ctx, { id: ctx.params.id }) };
  }),

  route(
    'PATCH /employees/{id}',
    async (ctx) => {
      return { body: await patchEmployee(ctx, ctx.params.id, ctx.body, positionsOf(ctx)) };
    },
    { conflict: uniqueConflict },
  ),

  route('DELETE /employees/{id}', async (ctx) => {
    return { body: await archiveEmployee(ctx, ctx.params.id) };
  }),

  route('POST /employees/{id}:transfer', async (ctx) => {
    return { body: await transferEmployee(ctx, ctx.params.id, ctx.body, positionsOf(ctx)) };
  }),

  route('POST /employees/{id}:terminate', async (ctx) => {
    return { body: await terminateEmployee(ctx, ctx.params.id, ctx.body) };
  }),

  route('POST /employees/{id}:rehire', async (ctx) => {
    return { body: await rehireEmployee(ctx, ctx.params.id, ctx.body, positionsOf(ctx)) };
  }),

  route('GET /employees/{id}/emergency-contacts', async (ctx) => {
    return { body: await getEmergencyContacts(ctx, ctx.params.id) };
  }),

  route('PUT /employees/{id}/emergency-contacts', async (ctx) => {
    return { body: await replaceEmergencyContacts(ctx, ctx.params.id, ctx.body.contacts) };
  }),
];
