import { lockForTransaction, type Work } from '@bop/shared';
import { identityService } from '@svc/identity';
import { Assignment, User } from '@svc/identity/dist/users/entities';
import { Role } from '@svc/identity/dist/roles/entities';
import { ensureAnotherOwner } from '@svc/identity/dist/users/store';
import type { SqlCase } from './case';

/**
 * A company of 2,000 users: 1,930 employees (the employee role at their location), 60 managers (at
 * their org unit), 6 owners at Everyone (one deactivated) and 4 owners at an org unit.
 */
const USERS = 2_000;
const usr = (i: number) => `usr_bench${String(i).padStart(4, '0')}`;

async function roleId(w: Work, key: string): Promise<string> {
  const found = await w.em.findOne(Role, { key });
  if (found) return found.id;
  const id = `rol_bench_${key}`;
  await w.em.insertMany(Role, [{ id, key, name: `Bench ${key}`, description: null, permissions: [], builtIn: true, status: 'active', createdAt: w.now, updatedAt: w.now, version: 1 }]);
  return id;
}

export const identityCases: SqlCase[] = [
  {
    name: 'identity.ensure-another-owner',
    what: 'is there another active owner at Everyone? (a user\'s owner grant removed), 2,000 users',
    service: identityService,
    async seed(write) {
      await write(async (w) => {
        const owner = await roleId(w, 'owner');
        const manager = await roleId(w, 'manager');
        const employee = await roleId(w, 'employee');
        const kind = (i: number) => (i < 10 ? 'owner' : i < 70 ? 'manager' : 'employee');
        await w.em.insertMany(
          User,
          Array.from({ length: USERS }, (_, i) => ({
            id: usr(i),
            email: `user${i}@bench.example.com`,
            name: `User ${i}`,
            locale: 'en',
            status: i === 5 ? ('deactivated' as const) : ('active' as const),
            passwordHash: null,
            employeeId: kind(i) === 'employee' ? `emp_bench${String(i).padStart(4, '0')}` : null,
            totpSecret: null,
            totpPendingSecret: null,
            totpLastStep: null,
            mfaEnrolledAt: null,
            lastSignInAt: null,
            deactivatedAt: i === 5 ? w.now : null,
            createdAt: w.now,
            updatedAt: w.now,
            version: 1,
          })),
        );
        await w.em.insertMany(
          Assignment,
          Array.from({ length: USERS }, (_, i) => ({
            id: `asg_bench${String(i).padStart(4, '0')}`,
            userId: usr(i),
            roleId: kind(i) === 'owner' ? owner : kind(i) === 'manager' ? manager : employee,
            reach: kind(i) === 'owner' && i < 6 ? { type: 'everyone' as const } : kind(i) === 'employee' ? { type: 'locations' as const, ids: [`loc_bench${String(i % 200).padStart(4, '0')}`] } : { type: 'org_units' as const, ids: [`org_bench${i % 20}`] },
            createdAt: w.now,
          })),
        );
      });
    },
    raw: (w) => ensureAnotherOwner(w, usr(0), 'This is the last active owner.'),
    async orm(w) {
      const { em } = w;
      await lockForTransaction(em, 'identity.owners');
      const owners = await em.find(Role, { key: 'owner' }, { fields: ['id'] });
      const grants = owners.length === 0 ? [] : await em.find(Assignment, { roleId: { $in: owners.map((r) => r.id) }, userId: { $ne: usr(0) }, reach: { type: 'everyone' } }, { fields: ['userId'] });
      const n = grants.length === 0 ? 0 : await em.count(User, { id: { $in: [...new Set(grants.map((a) => a.userId))] }, status: 'active' });
      if (n === 0) throw new Error('This is the last active owner.');
    },
  },
];
