import type { MigrationEntry } from '@bop/shared';
import { Migration20261127120000 } from './Migration20261127120000';
import { Migration20261127122000 } from './Migration20261127122000';
import { Migration20261127123000 } from './Migration20261127123000';
import { Migration20261201100000 } from './Migration20261201100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization and employee replicas
  { name: 'Migration20261127120000', class: Migration20261127120000 },
  // sensors, their alarms and readings (partitioned by month)
  { name: 'Migration20261127122000', class: Migration20261127122000 },
  // forms and their versions, form submissions (audits), corrective actions
  { name: 'Migration20261127123000', class: Migration20261127123000 },
  // forms, sensors: change_xid (commit-safe updatedSince)
  { name: 'Migration20261201100000', class: Migration20261201100000 },
  // corrective actions: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
