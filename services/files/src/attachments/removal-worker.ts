import { RoundWorker, type Logger, type ObjectStorage, type Orm } from '@bop/shared';
import { pendingRemovals, removeContent } from './store';

const BATCH = 50;
const IDLE_MS = 60_000;

/** Removes from the storage the bytes of deleted attachments that a delete could not remove at once (the storage was down). */
export class ContentRemovalWorker extends RoundWorker {
  readonly name = 'attachment-content-removal';

  constructor(private readonly opts: { orm: Orm; log: Logger; storage: ObjectStorage }) {
    super(opts.log);
  }

  protected async round(): Promise<number> {
    const ids = await pendingRemovals(this.opts.orm.em.fork(), BATCH);
    for (const id of ids) {
      if (this.stopping) break;
      await removeContent(this.opts.orm.em.fork(), this.opts.storage, id);
    }
    return ids.length < BATCH ? IDLE_MS : 0;
  }
}
