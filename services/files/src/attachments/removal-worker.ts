import { defineWorker, type ObjectStorage } from '@bop/shared';
import { pendingRemovals, removeContent, staleUploads, sweepUpload } from './store';

const BATCH = 50;
const IDLE_MS = 60_000;

/** Removes from the storage the bytes of deleted attachments that a delete could not remove at once (the storage was down). */
export const contentRemoval = (storage: ObjectStorage) =>
  defineWorker({
    name: 'attachment-content-removal',
    every: IDLE_MS,
    round: async (r) => {
      const ids = await r.read((w) => pendingRemovals(w, BATCH));
      for (const id of ids) {
        if (r.stopping) break;
        await r.write((w) => removeContent(w, storage, id));
      }
      // a full batch: more may be waiting
      return ids.length >= BATCH;
    },
  });

/**
 * Removes the bytes of uploads that never ended — stored, but the process died before their record
 * (or a refusal could not remove them) — once their intent is older than `orphanAfterMs`.
 */
export const uploadSweep = (storage: ObjectStorage, orphanAfterMs: number) =>
  defineWorker({
    name: 'upload-sweep',
    every: IDLE_MS,
    round: async (r) => {
      const stale = await r.read((w) => staleUploads(w, new Date(w.now.getTime() - orphanAfterMs), BATCH));
      for (const intent of stale) {
        if (r.stopping) break;
        await r.write((w) => sweepUpload(w, storage, intent.id));
      }
      return stale.length >= BATCH;
    },
  });
