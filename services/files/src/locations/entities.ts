import { locationReplicaEntity } from '@bop/shared';
import type { InferEntity } from '@mikro-orm/core';

/** Replica of organization's locations, fed by location.* events (the kit's orgReplicaConsumers): upload fields and reach. */
export const FilesLocation = locationReplicaEntity('FilesLocation');
export type FilesLocation = InferEntity<typeof FilesLocation>;
