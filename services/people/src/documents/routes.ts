import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { PeopleConfig } from '../config';
import { addDocument, archiveDocument, listDocuments, listOwnDocuments, patchDocument } from './store';
import { filesLink } from './files-client';

export const documentRoutes = (svc: ServiceRuntime<PeopleConfig>): RouteDef[] => [
  route('GET /employee-documents', async (ctx) => {
    return { body: await listDocuments(ctx.em, ctx.query, ctx) };
  }),

  route('POST /employee-documents', async (ctx) => {
    return { status: 201, body: await addDocument(ctx.em, ctx.body, ctx, filesLink(svc.services, ctx.requestId)) };
  }),

  route('PATCH /employee-documents/{id}', async (ctx) => {
    return { body: await patchDocument(ctx.em, ctx.params.id, ctx.body, ctx, filesLink(svc.services, ctx.requestId)) };
  }),

  route('DELETE /employee-documents/{id}', async (ctx) => {
    return { body: await archiveDocument(ctx.em, ctx.params.id, ctx, filesLink(svc.services, ctx.requestId)) };
  }),

  route('GET /me/documents', async (ctx) => {
    return { body: await listOwnDocuments(ctx.em, ctx.principal, ctx.query) };
  }),

  route('GET /me/payslips', async (ctx) => {
    return { body: await listOwnDocuments(ctx.em, ctx.principal, ctx.query, 'payslip') };
  }),
];
