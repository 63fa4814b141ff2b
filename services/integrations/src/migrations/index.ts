import type { MigrationEntry } from '@bop/shared';
import { Migration20261121120000 } from './Migration20261121120000';

export const migrations: MigrationEntry[] = [{ name: 'Migration20261121120000', class: Migration20261121120000 }];
