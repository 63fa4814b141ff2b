import type { Work } from '@bop/shared';
import { Employee } from './entities';

/** Notes which employee a user is linked to (and unlinks the employee it left); no event: the link is identity's. */
export async function linkUser(w: Work, userId: string, employeeId: string | null): Promise<void> {
  const { em } = w;
  await em.nativeUpdate(Employee, employeeId ? { userId, id: { $ne: employeeId } } : { userId }, { userId: null });
  if (employeeId) await em.nativeUpdate(Employee, { id: employeeId }, { userId });
}
