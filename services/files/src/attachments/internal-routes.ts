import {
  AttachmentConcernRequest,
  AttachmentsResolveRequest,
  GeneratedAttachmentCreate,
  PersonalDataExportRequest,
  type AttachmentsResolveAnswer,
  type PersonalDataExportAnswer,
} from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef, type ObjectStorage, type Principal } from '@bop/shared';
import { concernAttachment, personalAttachments, resolveAttachments, storeGeneratedFile } from './internal-store';

/** Files' internal commands for the people service (linked documents), insights' report exports and the personal-data export. System principal only. */
export const attachmentInternalRoutes = (storage: ObjectStorage, maxBytes: number): InternalRouteDef[] => [
  // the bytes are stored before the record, with no transaction held meanwhile (as an upload)
  internalRoute('POST /internal/attachments', { body: GeneratedAttachmentCreate }, async (ctx) => ({ status: 201, body: await storeGeneratedFile(ctx, storage, maxBytes, ctx.body) }), { transaction: false }),

  internalRoute('POST /internal/attachments:resolve', { body: AttachmentsResolveRequest }, async (ctx) => {
    const viewer = ctx.body.viewer as Principal | undefined;
    const answer: AttachmentsResolveAnswer = { data: await resolveAttachments(ctx, ctx.body.ids, viewer) };
    return ok(answer);
  }),

  internalRoute('POST /internal/attachments/{id}:concern', { body: AttachmentConcernRequest }, async (ctx) => {
    return ok(await concernAttachment(ctx, ctx.params.id, ctx.body.employeeId));
  }),

  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => {
    const answer: PersonalDataExportAnswer = { service: 'files', datasets: await personalAttachments(ctx, ctx.body.userId, ctx.body.employeeId) };
    return ok(answer);
  }),
];
