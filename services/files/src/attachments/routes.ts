import { ApiError, newId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { FilesConfig } from '../config';
import { receiveUpload, uploadLimits } from './upload-store';
import { employeeChecker } from './employees-client';
import { deleteAttachment, getAttachment, listAttachments, listMyAttachments, openContent, recordUpload, storageKeyOf } from './store';
import type { ObjectStorage } from '@bop/shared';

const headerText = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const attachmentRoutes = (svc: ServiceRuntime<FilesConfig>, storage: ObjectStorage): RouteDef[] => {
  const limits = uploadLimits(svc.config);
  return [
    route('GET /attachments', async (ctx) => {
      return { body: await listAttachments(ctx.em, ctx.query, ctx.principal) };
    }),

    route('POST /attachments', async (ctx) => {
      const id = newId('attachment');
      const upload = await receiveUpload(ctx.request, storage, storageKeyOf(id), limits);
      return { status: 201, body: await recordUpload(ctx.em, storage, id, upload, ctx.principal, employeeChecker(svc.services, ctx.requestId)) };
    }),

    route('GET /attachments/{id}', async (ctx) => {
      return { body: await getAttachment(ctx.em, ctx.params.id, ctx.principal) };
    }),

    route('DELETE /attachments/{id}', async (ctx) => {
      return { body: await deleteAttachment(ctx.em, storage, ctx.params.id, ctx.principal, (v) => ctx.checkVersion(v)) };
    }),

    route('GET /attachments/{id}/content', async (ctx) => {
      const content = await openContent(ctx.em, storage, ctx.params.id, ctx.principal, { range: ctx.headers.range, 'if-range': headerText(ctx.headers['if-range']) });
      if ('unsatisfiable' in content) {
        throw new ApiError('range_not_satisfiable', `The file has ${content.size} bytes; the range asked for lies outside it.`, undefined, { size: content.size }, { 'Content-Range': `bytes */${content.size}` });
      }
      return content;
    }),

    route('GET /me/attachments', async (ctx) => {
      return { body: await listMyAttachments(ctx.em, ctx.query, ctx.principal) };
    }),
  ];
};
