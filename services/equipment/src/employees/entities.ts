import { employeeReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of people's employees, fed by employee.* events (the kit's employeeReplicaConsumers): who work is assigned to. */
export const EquipmentEmployee = employeeReplicaEntity('EquipmentEmployee');
export type EquipmentEmployee = InferEntity<typeof EquipmentEmployee>;
