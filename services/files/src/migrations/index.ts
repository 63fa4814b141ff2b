import type { MigrationEntry } from '@bop/shared';
import { Migration20261126100000 } from './Migration20261126100000';
import { Migration20261128100000 } from './Migration20261128100000';
import { Migration20261202101000 } from './Migration20261202101000';

export const migrations: MigrationEntry[] = [
  // organization replica, attachments
  { name: 'Migration20261126100000', class: Migration20261126100000 },
  // upload intents (bytes stored but never recorded are swept)
  { name: 'Migration20261128100000', class: Migration20261128100000 },
  // audiences other services let read attachments (announcements, channels)
  { name: 'Migration20261202101000', class: Migration20261202101000 },
];
