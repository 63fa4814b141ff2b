/**
 * A case of `npm run bench:sql`: one raw SQL statement (or the few of one store function) a service
 * keeps, against the best form the ORM gives for the same work (`em.find`/`em.count`, a query builder,
 * or entities loaded, changed in code and flushed). Its name is what the raw statement's comment cites:
 * `// raw SQL (bench:sql cash.expected-amounts): …`.
 */
import type { ServiceDefinition, Work } from '@bop/shared';

export interface SqlCase {
  /** `<service>.<what>`, cited by the comment above the kept statement */
  name: string;
  /** what the statement is for, in a few words (printed beside the figures) */
  what: string;
  /** the service whose store runs it (each case file's cases share one database per service) */
  service: ServiceDefinition<any>;
  /**
   * The data the statement meets on a busy store, written once (committed) through `write`. Sizes come
   * from the bench's realistic volumes (a sales batch of 1,000, a location-year of days…), not from a toy.
   */
  seed(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void>;
  /** the kept raw statement, called as the store calls it; runs in a transaction the bench rolls back */
  raw(w: Work): Promise<unknown>;
  /** the same work through the ORM; runs in a transaction the bench rolls back */
  orm(w: Work): Promise<unknown>;
  /** both answer the same (default: equal as JSON after sorting arrays of ids/keys is the case's job) */
  same?(raw: unknown, orm: unknown): boolean;
}
