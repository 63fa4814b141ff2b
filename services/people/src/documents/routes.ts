import { route, type RouteDef } from '@bop/shared';
import { addDocument, archiveDocument, listDocuments, listOwnDocuments, patchDocument } from './store';
import { filesLink } from './files-client';

export const documentRoutes = (): RouteDef[] => [
  route('GET /employee-documents', async (ctx) => {
    return { body: await listDocuments(ctx, ctx.query) };
  }),

  // files is asked (and the file shared) before the document is written in a transaction of its own
  route(
    'POST /employee-documents',
    async (ctx) => {
      return { status: 201, body: await addDocument(ctx, ctx.body, filesLink(ctx.services, ctx.requestId)) };
    },
    { transaction: false },
  ),

  route('PATCH /employee-documents/{id}', async (ctx) => {
    return { body: await patchDocument(ctx, ctx.params.id, ctx.body, filesLink(ctx.services, ctx.requestId)) };
  }),

  route('DELETE /employee-documents/{id}', async (ctx) => {
    return { body: await archiveDocument(ctx, ctx.params.id, filesLink(ctx.services, ctx.requestId)) };
  }),

  route('GET /me/documents', async (ctx) => {
    return { body: await listOwnDocuments(ctx, ctx.query) };
  }),

  route('GET /me/payslips', async (ctx) => {
    return { body: await listOwnDocuments(ctx, ctx.query, 'payslip') };
  }),
];
