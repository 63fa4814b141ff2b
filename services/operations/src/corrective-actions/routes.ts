import { now, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { OperationsConfig } from '../config';
import { attachmentErrors } from '../submissions/files-link';
import { closeCorrectiveAction, createCorrectiveAction, listCorrectiveActions, patchCorrectiveAction, readCorrectiveAction } from './store';

/** Corrective actions (spec: Forms, checklists and compliance), within the reach of `corrective_actions.manage` by location. */
export const correctiveActionRoutes = (svc: ServiceRuntime<OperationsConfig>): RouteDef[] => [
  route('GET /corrective-actions', async (ctx) => {
    return { body: await listCorrectiveActions(ctx.em, ctx.query, { principal: ctx.principal, reach: ctx.reach(), now: now() }) };
  }),

  route('POST /corrective-actions', async (ctx) => {
    const action = await createCorrectiveAction(ctx.em, ctx.body, { principal: ctx.principal, reach: ctx.reach(), now: now() });
    return { status: 201, body: action, headers: { Location: `/api/v1/corrective-actions/${action.id}` } };
  }),

  route('GET /corrective-actions/{id}', async (ctx) => {
    return { body: await readCorrectiveAction(ctx.em, ctx.params.id, { principal: ctx.principal, reach: ctx.reach(), now: now() }) };
  }),

  route('PATCH /corrective-actions/{id}', async (ctx) => {
    const caller = { principal: ctx.principal, reach: ctx.reach(), now: now(), checkVersion: (v: number) => ctx.checkVersion(v) };
    return { body: await patchCorrectiveAction(ctx.em, ctx.params.id, ctx.body, caller) };
  }),

  route('POST /corrective-actions/{id}:close', async (ctx) => {
    const caller = {
      principal: ctx.principal,
      reach: ctx.reach(),
      now: now(),
      checkVersion: (v: number) => ctx.checkVersion(v),
      checkAttachments: (refs: Array<{ id: string; path: string; image: boolean }>) => attachmentErrors(svc.services, refs, ctx.principal, ctx.requestId),
    };
    return { body: await closeCorrectiveAction(ctx.em, ctx.params.id, ctx.body, caller) };
  }),
];
