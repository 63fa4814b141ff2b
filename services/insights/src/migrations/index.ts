import type { MigrationEntry } from '@bop/shared';
import { Migration20261128130000 } from './Migration20261128130000';
import { Migration20261128131000 } from './Migration20261128131000';
import { Migration20261128132000 } from './Migration20261128132000';
import { Migration20261128133000 } from './Migration20261128133000';
import { Migration20261128134000 } from './Migration20261128134000';
import { Migration20261128135000 } from './Migration20261128135000';
import { Migration20261202400000 } from './Migration20261202400000';
import { Migration20261202600000 } from './Migration20261202600000';
import { Migration20261202500000 } from './Migration20261202500000';
import { Migration20261202501000 } from './Migration20261202501000';
import { Migration20261203200000 } from './Migration20261203200000';
import { Migration20261203201000 } from './Migration20261203201000';
import { Migration20261203500000 } from './Migration20261203500000';
import { Migration20261204100000 } from './Migration20261204100000';
import { Migration20261205200000 } from './Migration20261205200000';

export const migrations: MigrationEntry[] = [
  // organization and employee replicas
  { name: 'Migration20261128130000', class: Migration20261128130000 },
  // sales and labor read models
  { name: 'Migration20261128131000', class: Migration20261128131000 },
  // scheduled shifts
  { name: 'Migration20261128132000', class: Migration20261128132000 },
  // labor per 15-minute interval
  { name: 'Migration20261128133000', class: Migration20261128133000 },
  // waste records
  { name: 'Migration20261128134000', class: Migration20261128134000 },
  // over/short of closed cash days
  { name: 'Migration20261128135000', class: Migration20261128135000 },
  // reports: sales by item and channel, waste reasons, report exports
  { name: 'Migration20261202400000', class: Migration20261202400000 },
  // stock flows and levels, items, purchase prices and orders, recommendations
  { name: 'Migration20261202600000', class: Migration20261202600000 },
  // alert rules, their states, the pairs to evaluate, their firings
  { name: 'Migration20261202500000', class: Migration20261202500000 },
  // rebuilds of the read models from the bus
  { name: 'Migration20261202501000', class: Migration20261202501000 },
  // forecasts (scheduling's fits and adjustments)
  { name: 'Migration20261203200000', class: Migration20261203200000 },
  // scheduled shifts' start and end (staffing per hour)
  { name: 'Migration20261203201000', class: Migration20261203201000 },
  // each location's feed of today's KPIs to the team displays
  { name: 'Migration20261203500000', class: Migration20261203500000 },
  // hours priced as written; day sums of labor, shifts and stock flows kept by Postgres
  { name: 'Migration20261204100000', class: Migration20261204100000 },
  // alert rules, report schedules, recommendations: change_xid (the latter two: updated_at) (commit-safe updatedSince)
  { name: 'Migration20261205200000', class: Migration20261205200000 },
];
