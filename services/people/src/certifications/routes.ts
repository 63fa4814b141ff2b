import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { PeopleConfig } from '../config';
import { filesLink } from '../documents/files-client';
import { addCertification, archiveCertification, listCertifications, patchCertification } from './store';

export const certificationRoutes = (svc: ServiceRuntime<PeopleConfig>): RouteDef[] => [
  route('GET /certifications', async (ctx) => {
    return { body: await listCertifications(ctx.em, ctx.query, ctx) };
  }),

  route('POST /certifications', async (ctx) => {
    return { status: 201, body: await addCertification(ctx.em, ctx.body, ctx, filesLink(svc.services, ctx.requestId)) };
  }),

  route('PATCH /certifications/{id}', async (ctx) => {
    return { body: await patchCertification(ctx.em, ctx.params.id, ctx.body, ctx, filesLink(svc.services, ctx.requestId)) };
  }),

  route('DELETE /certifications/{id}', async (ctx) => {
    return { body: await archiveCertification(ctx.em, ctx.params.id, ctx) };
  }),
];
