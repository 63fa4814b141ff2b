import { employeeReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of people's employees, fed by employee.* events (the kit's employeeReplicaConsumers): who an announcement's audience is. */
export const CommunicationEmployee = employeeReplicaEntity('CommunicationEmployee');
export type CommunicationEmployee = InferEntity<typeof CommunicationEmployee>;
