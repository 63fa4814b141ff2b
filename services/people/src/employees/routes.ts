import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { PeopleConfig } from '../config';
import { peopleSettings } from '../settings/company-settings';
import { archiveEmployee, createEmployee, getEmergencyContacts, getEmployee, listEmployees, patchEmployee, replaceEmergencyContacts, type PositionsList } from './store';
import { rehireEmployee, terminateEmployee, transferEmployee } from './lifecycle-store';
import { putEmployeeByExternalId } from './external-store';

export const employeeRoutes = (svc: ServiceRuntime<PeopleConfig>): RouteDef[] => {
  const positions = (requestId: string): PositionsList => async () => (await peopleSettings(svc.services, requestId))?.positions ?? null;
  return [
    route('GET /employees', async (ctx) => {
      return { body: await listEmployees(ctx.em, ctx.query, ctx) };
    }),

    route('POST /employees', async (ctx) => {
      return { status: 201, body: await createEmployee(ctx.em, ctx.body, ctx, positions(ctx.requestId)) };
    }),

    route('GET /employees/external/{externalId}', async (ctx) => {
      return { body: await getEmployee(ctx.em, { externalId: ctx.params.externalId }, ctx) };
    }),

    route('PUT /employees/external/{externalId}', async (ctx) => {
      return await putEmployeeByExternalId(ctx.em, ctx.params.externalId, ctx.body, ctx, positions(ctx.requestId));
    }),

    route('GET /employees/{id}', async (ctx) => {
      return { body: await getEmployee(ctx.em, { id: ctx.params.id }, ctx) };
    }),

    route('PATCH /employees/{id}', async (ctx) => {
      return { body: await patchEmployee(ctx.em, ctx.params.id, ctx.body, ctx, positions(ctx.requestId)) };
    }),

    route('DELETE /employees/{id}', async (ctx) => {
      return { body: await archiveEmployee(ctx.em, ctx.params.id, ctx) };
    }),

    route('POST /employees/{id}:transfer', async (ctx) => {
      return { body: await transferEmployee(ctx.em, ctx.params.id, ctx.body, ctx, positions(ctx.requestId)) };
    }),

    route('POST /employees/{id}:terminate', async (ctx) => {
      return { body: await terminateEmployee(ctx.em, ctx.params.id, ctx.body, ctx) };
    }),

    route('POST /employees/{id}:rehire', async (ctx) => {
      return { body: await rehireEmployee(ctx.em, ctx.params.id, ctx.body, ctx, positions(ctx.requestId)) };
    }),

    route('GET /employees/{id}/emergency-contacts', async (ctx) => {
      return { body: await getEmergencyContacts(ctx.em, ctx.params.id, ctx) };
    }),

    route('PUT /employees/{id}/emergency-contacts', async (ctx) => {
      return { body: await replaceEmergencyContacts(ctx.em, ctx.params.id, ctx.body.contacts, ctx) };
    }),
  ];
};
