import type { MigrationEntry } from '@bop/shared';
import { Migration20261121060000 } from './Migration20261121060000';
import { Migration20261124100000 } from './Migration20261124100000';
import { Migration20261125060000 } from './Migration20261125060000';
import { Migration20261126043000 } from './Migration20261126043000';
import { Migration20261126100000 } from './Migration20261126100000';
import { Migration20261129090000 } from './Migration20261129090000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  { name: 'Migration20261121060000', class: Migration20261121060000 },
  // company settings: supplier invoice matching tolerances
  { name: 'Migration20261124100000', class: Migration20261124100000 },
  // the email log is the outgoing queue: status, attempts, next attempt, sent at, error
  { name: 'Migration20261125060000', class: Migration20261125060000 },
  // company settings: the positions employees can work and how long an archived employee's personal fields are kept
  { name: 'Migration20261126043000', class: Migration20261126043000 },
  // company settings: the company's time zone (pay periods)
  { name: 'Migration20261126100000', class: Migration20261126100000 },
  // company settings: the least rest between two shifts (scheduling's warnings)
  { name: 'Migration20261129090000', class: Migration20261129090000 },
  // users, invitations and roles: change_xid (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
