import { route, type RouteDef } from '@bop/shared';
import { filesLink } from '../documents/files-client';
import { addCertification, archiveCertification, listCertifications, patchCertification } from './store';

export const certificationRoutes = (): RouteDef[] => [
  route('GET /certifications', async (ctx) => {
    return { body: await listCertifications(ctx, ctx.query) };
  }),

  // files is asked (and the file shared) before the certification is written in a transaction of its own
  route(
    'POST /certifications',
    async (ctx) => {
      return { status: 201, body: await addCertification(ctx, ctx.body, filesLink(ctx.services, ctx.requestId)) };
    },
    { transaction: false },
  ),

  route('PATCH /certifications/{id}', async (ctx) => {
    return { body: await patchCertification(ctx, ctx.params.id, ctx.body, filesLink(ctx.services, ctx.requestId)) };
  }),

  route('DELETE /certifications/{id}', async (ctx) => {
    return { body: await archiveCertification(ctx, ctx.params.id) };
  }),
];
