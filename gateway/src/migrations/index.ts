import type { MigrationEntry } from '@bop/shared';
import { Migration20261122000000 } from './Migration20261122000000';

export const migrations: MigrationEntry[] = [{ name: 'Migration20261122000000', class: Migration20261122000000 }];
