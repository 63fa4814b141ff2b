import { createService, orgReplicaConsumers, type ObjectStorage } from '@bop/shared';
import { configSchema, type FilesConfig } from './config';
import { migrations } from './migrations';
import { FilesLocation } from './locations/entities';
import { Attachment, AttachmentAudience, AttachmentAudienceFile, AttachmentAudienceMember, UploadIntent } from './attachments/entities';
import { attachmentAudienceConsumers } from './attachments/consumers';
import { attachmentRoutes } from './attachments/routes';
import { attachmentInternalRoutes } from './attachments/internal-routes';
import { attachmentStorage, uploadLimits } from './attachments/upload-store';
import { contentRemoval, uploadSweep } from './attachments/removal-worker';

export { configSchema, type FilesConfig } from './config';

/** One storage per service instance (the routes and the removal worker share it). */
const storages = new WeakMap<object, ObjectStorage>();
const storageOf = (svc: { config: FilesConfig }) => {
  let s = storages.get(svc.config);
  if (!s) storages.set(svc.config, (s = attachmentStorage(svc.config)));
  return s;
};

/**
 * Files: attachments (documents, photos, signatures) with their bytes in one storage (a local
 * directory or an S3-compatible bucket) and the access rules of the spec's Attachments table, over a
 * replica of organization's locations for reach; the audiences communication lets read attachments
 * (an announcement's audience, a channel's members).
 */
export const filesService = createService({
  name: 'files',
  // the kit opens the transaction of every write (issue 37)
  configSchema,
  entities: [FilesLocation, Attachment, UploadIntent, AttachmentAudience, AttachmentAudienceMember, AttachmentAudienceFile],
  migrations,
  consumers: () => [...orgReplicaConsumers('files'), ...attachmentAudienceConsumers],
  workers: (svc) => [contentRemoval(storageOf(svc)), uploadSweep(storageOf(svc), svc.config.FILES_UPLOAD_ORPHAN_AFTER_MS)],
  routes: (svc) => attachmentRoutes(svc, storageOf(svc)),
  internalRoutes: (svc) => attachmentInternalRoutes(storageOf(svc), uploadLimits(svc.config).maxBytes),
});
