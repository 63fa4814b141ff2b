import { defineEntity, p, type EntitySchema } from '@mikro-orm/core';

/**
 * The kit's entities of the replica tables no service maps itself: `<schema>.pay_rates` (beside a
 * service's employee replica) and `<schema>.org_units` (beside its location replica). The kit adds
 * them to the ORM of every service that registers the replica entity they go with (createOrm), under
 * the names below; the replicas' stores query them by these names.
 */
export const PAY_RATE_REPLICA = 'KitPayRateReplica';
export const ORG_UNIT_REPLICA = 'KitOrgUnitReplica';

export interface PayRateReplicaRow {
  id: string;
  employeeId: string;
  type: string;
  amount: string;
  position: string | null;
  effectiveDate: string;
}

export interface OrgUnitReplicaRow {
  id: string;
  parentId: string | null;
  status: string;
  updatedAt: Date;
}

const employeeReplicas = new WeakSet<object>();
const locationReplicas = new WeakSet<object>();

/** Marks a service's entity of `<schema>.employees` (employeeReplicaEntity): its ORM gets the pay rates' entity. */
export function employeeReplica<E extends object>(entity: E): E {
  employeeReplicas.add(entity);
  return entity;
}

/** Marks a service's entity of `<schema>.locations` (locationReplicaEntity): its ORM gets the org units' entity. */
export function locationReplica<E extends object>(entity: E): E {
  locationReplicas.add(entity);
  return entity;
}

/** The kit's replica entities a service's entities call for (new ones for each ORM; no schema: the ORM's default, the service's own). */
export function replicaEntitiesFor(entities: readonly object[]): EntitySchema<any, any>[] {
  const out: EntitySchema<any, any>[] = [];
  if (entities.some((e) => employeeReplicas.has(e))) {
    out.push(
      defineEntity({
        name: PAY_RATE_REPLICA,
        tableName: 'pay_rates',
        properties: {
          id: p.string().primary(),
          employeeId: p.string(),
          type: p.string(),
          amount: p.decimal('string'),
          position: p.string().nullable(),
          effectiveDate: p.string().columnType('date'),
        },
      }),
    );
  }
  if (entities.some((e) => locationReplicas.has(e))) {
    out.push(
      defineEntity({
        name: ORG_UNIT_REPLICA,
        tableName: 'org_units',
        properties: {
          id: p.string().primary(),
          parentId: p.string().nullable(),
          status: p.string(),
          updatedAt: p.datetime(),
        },
      }),
    );
  }
  return out;
}
