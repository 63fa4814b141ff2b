import type { MigrationEntry } from '@bop/shared';
import { Migration20261128130000 } from './Migration20261128130000';
import { Migration20261128140000 } from './Migration20261128140000';
import { Migration20261128150000 } from './Migration20261128150000';
import { Migration20261202200000 } from './Migration20261202200000';

export const migrations: MigrationEntry[] = [
  // organization, employee and shift replicas
  { name: 'Migration20261128130000', class: Migration20261128130000 },
  // announcements and their recipients
  { name: 'Migration20261128140000', class: Migration20261128140000 },
  // recognitions and display metrics
  { name: 'Migration20261128150000', class: Migration20261128150000 },
  // notifications, preferences, deliveries and people's contact details
  { name: 'Migration20261202200000', class: Migration20261202200000 },
];
