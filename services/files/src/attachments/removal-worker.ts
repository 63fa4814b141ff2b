import { defineWorker, type ObjectStorage } from '@bop/shared';
import { pendingRemovals, removeContent } from './store';

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
