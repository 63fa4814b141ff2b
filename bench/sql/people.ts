import type { Work } from '@bop/shared';
import { peopleService } from '@svc/people';
import { Employee } from '@svc/people/dist/employees/entities';
import { employeeVersions } from '@svc/people/dist/employees/store';
import { PeopleDepartment } from '@svc/people/dist/departments/entities';
import { upsertDepartment } from '@svc/people/dist/departments/replica-store';
import type { SqlCase } from './case';

/** A busy company: 200 locations, 5 departments each, 2,000 employees (10 a location). */
const LOCATIONS = 200;
const EMPLOYEES = 2000;
const loc = (i: number) => `loc_bench${String(i).padStart(4, '0')}`;
const dep = (i: number) => `dep_bench${String(i).padStart(4, '0')}`;
const emp = (i: number) => `emp_bench${String(i).padStart(4, '0')}`;
const T0 = new Date('2026-11-01T08:00:00.000Z');

async function seed(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  await write(async (w) => {
    await w.em.insertMany(
      PeopleDepartment,
      Array.from({ length: LOCATIONS * 5 }, (_, i) => ({ id: dep(i), locationId: loc(Math.floor(i / 5)), status: 'active', updatedAt: T0 })),
    );
    await w.em.insertMany(
      Employee,
      Array.from({ length: EMPLOYEES }, (_, i) => ({
        id: emp(i),
        employeeNumber: `E${i}`,
        externalId: `hr-${i}`,
        legalFirstName: `First${i}`,
        legalLastName: `Last${i}`,
        preferredName: null,
        email: `e${i}@example.com`,
        phone: '+15555550100',
        address: { line1: `${i} Main St`, city: 'Springfield', postalCode: '12345', country: 'US' },
        birthDate: '1990-01-01',
        homeLocationId: loc(Math.floor(i / 10)),
        locationIds: [loc(Math.floor(i / 10))],
        departmentId: dep(Math.floor(i / 10) * 5),
        positions: ['cook', 'server'],
        hireDate: '2024-03-01',
        status: 'active' as const,
        terminationDate: null,
        terminationReason: null,
        scheduledTransfer: null,
        employmentHistory: [],
        emergencyContacts: [{ name: 'Someone', relationship: 'partner', phone: '+15555550101', email: null }],
        userId: null,
        version: 1 + (i % 4),
        createdAt: T0,
        updatedAt: T0,
        archivedAt: null,
        anonymisedAt: null,
      })),
    );
  });
}

/** A batch of 1,000 punches names 1,000 employees, by id. */
const batchIds = Array.from({ length: 1000 }, (_, i) => emp(i * 2));
const byId = (rows: unknown) => [...(rows as Array<{ id: string }>)].sort((x, y) => (x.id < y.id ? -1 : 1));
/** organization's answer for one department: moved to another location, newer than the replica's row */
const moved = { id: dep(42), locationId: loc(43), status: 'active', updatedAt: '2026-11-20T09:30:00.000Z' };

/** people's kept raw statements (cases named `people.<what>`), each against its best ORM form. */
export const peopleCases: SqlCase[] = [
  {
    name: 'people.employee-versions',
    what: 'the versions of the 1,000 employees a punch batch names (of 2,000), to skip those the caller has',
    service: peopleService,
    seed,
    raw: (w) => employeeVersions(w, batchIds, []),
    async orm(w) {
      const ids: string[] = batchIds;
      const externalIds: string[] = [];
      const or = [...(ids.length > 0 ? [{ id: { $in: ids } }] : []), ...(externalIds.length > 0 ? [{ externalId: { $in: externalIds } }] : [])];
      return w.em.createQueryBuilder(Employee).select(['id', 'version']).where({ $or: or }).execute('all', true);
    },
    same: (a, b) => JSON.stringify(byId(a)) === JSON.stringify(byId(b)),
  },
  {
    name: 'people.upsert-department',
    what: 'a department organization answered, upserted into the replica unless the replica holds a newer one',
    service: peopleService,
    seed: async () => undefined,
    raw: (w) => upsertDepartment(w, moved as never),
    async orm(w) {
      const updatedAt = new Date(moved.updatedAt);
      await w.em
        .createQueryBuilder(PeopleDepartment)
        .insert({ id: moved.id, locationId: moved.locationId, status: moved.status, updatedAt })
        .onConflict('id')
        .merge(['locationId', 'status', 'updatedAt'])
        .where({ updatedAt: { $lte: updatedAt } })
        .execute();
    },
  },
];
