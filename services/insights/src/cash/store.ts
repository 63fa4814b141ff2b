import type { Work } from '@bop/shared';
import { OverShortDay } from './entities';

/** Keeps a day's over/short from its latest close; an older or repeated close changes nothing. */
export async function applyClosedDay(w: Work, d: { locationId: string; businessDay: string; overShort: string; closedAt: Date }): Promise<void> {
  const held = await w.em.findOne(OverShortDay, { locationId: d.locationId, businessDay: d.businessDay });
  if (held && new Date(held.closedAt).getTime() >= d.closedAt.getTime()) return;
  if (held) Object.assign(held, { overShort: d.overShort, closedAt: d.closedAt });
  else w.em.create(OverShortDay, d);
  await w.em.flush();
}
