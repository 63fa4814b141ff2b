import type { MigrationEntry } from '@bop/shared';
import { Migration20261127130000 } from './Migration20261127130000';
import { Migration20261127140000 } from './Migration20261127140000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization and employee replicas
  { name: 'Migration20261127130000', class: Migration20261127130000 },
  // assets, moves, meter readings, maintenance plans and their occurrences, work orders and their history
  { name: 'Migration20261127140000', class: Migration20261127140000 },
  // assets, maintenance plans and work orders: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
