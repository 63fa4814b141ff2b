import type { MigrationEntry } from '@bop/shared';
import { Migration20261129100000 } from './Migration20261129100000';

export const migrations: MigrationEntry[] = [
  // organization and employee replicas, approved time off, availability and shifts
  { name: 'Migration20261129100000', class: Migration20261129100000 },
];
