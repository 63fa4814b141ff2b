import { eventTypes } from '@bop/contracts';
import { featureOn, isDeliverableType, subscribes, type FieldError, type Subscriber } from '../event-types/subscriptions';

/** Who reads the log: an integration's scopes (null for a person), and the feature switches now. */
export interface Reader {
  scopes: string[] | null;
  features: ReadonlyMap<string, boolean>;
}

const deliverable = eventTypes.filter((e) => isDeliverableType(e.type));

/**
 * The types a reader may see in the log: those a `["*"]` webhook subscription of theirs would be sent
 * (spec: Events, Subscribing — an integration only what its scopes cover; only enabled features).
 */
export function readableTypes(reader: Reader): string[] {
  return sentTypes({ events: ['*'], scopes: reader.scopes }, reader.features);
}

/** The types the fan-out sends an endpoint now: those it subscribes to (scopes included) whose feature is on. */
export function sentTypes(endpoint: Subscriber, features: ReadonlyMap<string, boolean>): string[] {
  return deliverable.filter((def) => subscribes(endpoint, def) && featureOn(def.feature, features)).map((def) => def.type);
}

/**
 * The `type` filter (`a.b,c.*,*`) as the catalogue types it names, or field errors: each entry is a
 * deliverable type, a `prefix.*` pattern matching one, or `*`. An exact type the reader's scopes do not
 * cover is an error too (a pattern keeps the covered ones).
 */
export function typesOfFilter(filter: string, reader: Reader): { types: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const named = new Set<string>();
  const endpoint = { events: ['*'], scopes: reader.scopes };
  for (const raw of filter.split(',')) {
    const entry = raw.trim();
    if (entry === '*') {
      deliverable.forEach((d) => named.add(d.type));
    } else if (/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.\*$/.test(entry)) {
      const prefix = entry.slice(0, -1);
      const matched = deliverable.filter((d) => d.type.startsWith(prefix));
      if (matched.length === 0) errors.push({ path: 'type', message: `${entry} matches no event type; GET /event-types lists them.` });
      matched.forEach((d) => named.add(d.type));
    } else if (deliverable.some((d) => d.type === entry)) {
      const def = deliverable.find((d) => d.type === entry)!;
      if (!subscribes(endpoint, def)) errors.push({ path: 'type', message: `${entry} needs one of the scopes ${def.scopes.join(', ')}.` });
      named.add(entry);
    } else {
      errors.push({ path: 'type', message: `${entry === '' ? 'An empty entry' : entry} is not an event type, a pattern like sales_order.* or *; GET /event-types lists them.` });
    }
  }
  return { types: [...named], errors };
}
