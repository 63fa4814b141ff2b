import { employeeReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of people's employees, fed by employee.* events (the kit's employeeReplicaConsumers): who punches, where and until when. */
export const TimeEmployee = employeeReplicaEntity('TimeEmployee');
export type TimeEmployee = InferEntity<typeof TimeEmployee>;
