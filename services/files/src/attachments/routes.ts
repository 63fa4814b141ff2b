import { ApiError, newId, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { FilesConfig } from '../config';
import { receiveUpload, uploadLimits } from './upload-store';
import { employeeChecker } from './employees-client';
import { beginUpload, deleteAttachment, getAttachment, listAttachments, listMyAttachments, openContent, recordUpload, refusedUpload, storageKeyOf } from './store';
import type { ObjectStorage } from '@bop/shared';

const headerText = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const attachmentRoutes = (svc: ServiceRuntime<FilesConfig>, storage: ObjectStorage): RouteDef[] => {
  const limits = uploadLimits(svc.config);
  return [
    route('GET /attachments', async (ctx) => {
      return { body: await listAttachments(ctx, ctx.query) };
    }),

    // the bytes stream into the storage with no transaction held meanwhile: an intent committed first
    // names them until the record does (a process dying in between leaves them to the upload sweeper)
    route(
      'POST /attachments',
      async (ctx) => {
        const id = newId('attachment');
        await ctx.transaction((w) => beginUpload(w, id));
        let upload;
        try {
          upload = await receiveUpload(ctx.request, storage, storageKeyOf(id), limits);
        } catch (err) {
          await refusedUpload(ctx, storage, id);
          throw err;
        }
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
