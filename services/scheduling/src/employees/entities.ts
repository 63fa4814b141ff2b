import { employeeReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of people's employees, fed by employee.* events (the kit's employeeReplicaConsumers): positions, locations and termination. */
export const SchedulingEmployee = employeeReplicaEntity('SchedulingEmployee');
export type SchedulingEmployee = InferEntity<typeof SchedulingEmployee>;
