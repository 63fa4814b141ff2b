import { employeeReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of people's employees and their pay rates (the kit's employeeReplicaConsumers): the rate in force prices labor. */
export const InsightsEmployee = employeeReplicaEntity('InsightsEmployee');
export type InsightsEmployee = InferEntity<typeof InsightsEmployee>;
