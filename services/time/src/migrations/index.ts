import type { MigrationEntry } from '@bop/shared';
import { Migration20261126140000 } from './Migration20261126140000';

export const migrations: MigrationEntry[] = [
  // organization replica, break and overtime rule sets
  { name: 'Migration20261126140000', class: Migration20261126140000 },
];
