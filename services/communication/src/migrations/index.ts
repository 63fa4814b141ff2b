import type { MigrationEntry } from '@bop/shared';
import { Migration20261128130000 } from './Migration20261128130000';
import { Migration20261128140000 } from './Migration20261128140000';
import { Migration20261128150000 } from './Migration20261128150000';
import { Migration20261202100000 } from './Migration20261202100000';
import { Migration20261202200000 } from './Migration20261202200000';
import { Migration20261202300000 } from './Migration20261202300000';
import { Migration20261203400000 } from './Migration20261203400000';
import { Migration20261203400100 } from './Migration20261203400100';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization, employee and shift replicas
  { name: 'Migration20261128130000', class: Migration20261128130000 },
  // announcements and their recipients
  { name: 'Migration20261128140000', class: Migration20261128140000 },
  // recognitions and display metrics
  { name: 'Migration20261128150000', class: Migration20261128150000 },
  // channels, their members and messages
  { name: 'Migration20261202100000', class: Migration20261202100000 },
  // notifications, preferences, deliveries and people's contact details
  { name: 'Migration20261202200000', class: Migration20261202200000 },
  // display screens and pairing codes
  { name: 'Migration20261202300000', class: Migration20261202300000 },
  // shifts published before the replica heard of them, and schedule publications waiting for their shifts
  { name: 'Migration20261203400000', class: Migration20261203400000 },
  // the announcement_overdue notification kind
  { name: 'Migration20261203400100', class: Migration20261203400100 },
  // announcements, their recipients (updated_at), display screens and display metrics: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
