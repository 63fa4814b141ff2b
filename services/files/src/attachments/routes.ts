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
      return { body: await listAttachments(ctx, ctx.query) };
    }),

    // the bytes stream into the storage before anything is written: no transaction is held meanwhile
    route(
      'POST /attachments',
      async (ctx) => {
        const id = newId('attachment');
        const upload = await receiveUpload(ctx.request, storage, storageKeyOf(id), limits);
        return { status: 201, body: await recordUpload(ctx, storage, id, upload, employeeChecker(ctx.services, ctx.requestId)) };
      },
      { transaction: false },
    ),

    route('GET /attachments/{id}', async (ctx) => {
      return { body: await getAttachment(ctx, ctx.params.id) };
    }),

    // the bytes are removed once the delete is committed
    route(
      'DELETE /attachments/{id}',
      async (ctx) => {
        return { body: await deleteAttachment(ctx, storage, ctx.params.id) };
      },
      { transaction: false },
    ),

    route('GET /attachments/{id}/content', async (ctx) => {
      const content = await openContent(ctx, storage, ctx.params.id, { range: ctx.headers.range, 'if-range': headerText(ctx.headers['if-range']) });
      if ('unsatisfiable' in content) {
        throw new ApiError('range_not_satisfiable', `The file has ${content.size} bytes; the range asked for lies outside it.`, undefined, { size: content.size }, { 'Content-Range': `bytes */${content.size}` });
      }
      return content;
    }),

    route('GET /me/attachments', async (ctx) => {
      return { body: await listMyAttachments(ctx, ctx.query) };
    }),
  ];
};
