import type { Work } from '@bop/shared';
import { WasteRecord } from './entities';

/** Keeps a waste record once (a record is never changed at inventory; a repeat changes nothing). */
export async function applyWaste(w: Work, r: { id: string; locationId: string; businessDay: string; reason: string | null; totalValue: string }): Promise<void> {
  if (await w.em.findOne(WasteRecord, { id: r.id })) return;
  w.em.create(WasteRecord, r);
  await w.em.flush();
}
