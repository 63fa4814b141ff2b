import type { z } from 'zod';
import type { ListQuery } from '@bop/contracts';
import { actorOf, findPage, mapPage, newId, ownEmployeeId, type Work } from '@bop/shared';
import { Activity } from './entities';
import { fieldChanges } from './changes';

/** Records a change to an employee record in the audit trail (the unit of the change; its actor). */
export function recordActivity(w: Work, employeeId: string, action: string, before: Record<string, unknown> | null, after: Record<string, unknown>): void {
  w.em.create(Activity, { id: newId('activity'), employeeId, at: w.now, actor: actorOf(w.actor), action, changes: fieldChanges(before, after) });
}

/** `GET /me/activity`: the changes made to the caller's own record, oldest first (cursor pages). */
export async function listOwnActivity(w: Work, query: z.output<typeof ListQuery>) {
  const page = await findPage(w.em, Activity, [{ employeeId: ownEmployeeId(w.actor) }], query);
  return mapPage(page, (a) => ({ id: a.id, employeeId: a.employeeId, at: a.at.toISOString(), actor: a.actor as never, action: a.action, changes: a.changes }));
}
