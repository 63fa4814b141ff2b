import type { z } from 'zod';
import type { ListQuery } from '@bop/contracts';
import { actorOf, findPage, mapPage, newId, now, ownEmployeeId, type EntityManager, type Principal } from '@bop/shared';
import { Activity } from './entities';
import { fieldChanges } from './changes';

/** Records a change to an employee record in the audit trail (same transaction as the change). */
export function recordActivity(em: EntityManager, employeeId: string, actor: Principal | null, action: string, before: Record<string, unknown> | null, after: Record<string, unknown>): void {
  em.create(Activity, { id: newId('activity'), employeeId, at: now(), actor: actorOf(actor), action, changes: fieldChanges(before, after) });
}

/** `GET /me/activity`: the changes made to the caller's own record, oldest first (cursor pages). */
export async function listOwnActivity(em: EntityManager, principal: Principal, query: z.output<typeof ListQuery>) {
  const page = await findPage(em, Activity, [{ employeeId: ownEmployeeId(principal) }], query);
  return mapPage(page, (a) => ({ id: a.id, employeeId: a.employeeId, at: a.at.toISOString(), actor: a.actor as never, action: a.action, changes: a.changes }));
}
