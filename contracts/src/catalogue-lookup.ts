import { endpoints } from './catalogue/endpoints';
import type { EndpointRow } from './catalogue/types';
import { features } from './catalogue/features';
import { RouteTable } from './route-match';

export const endpointKey = (row: Pick<EndpointRow, 'method' | 'path'>): string => `${row.method} ${row.path}`;

const byKey = new Map(endpoints.map((row) => [endpointKey(row), row]));

export function findEndpoint(key: string): EndpointRow | undefined {
  return byKey.get(key);
}

/** A route table over the public API rows (paths relative to {base_url}); host-level rows are left out. */
export function apiRouteTable(): RouteTable<EndpointRow> {
  const table = new RouteTable<EndpointRow>();
  for (const row of endpoints) {
    if (row.service === 'gateway') continue;
    table.add(row.method, row.path, row);
  }
  return table;
}

const parentOf = new Map(features.map((f) => [f.key, f.parent]));

/** The feature and its ancestors, nearest first: a child is on only when every ancestor is on. */
export function featureChain(key: string): string[] {
  const chain: string[] = [];
  let k: string | null | undefined = key;
  while (k) {
    chain.push(k);
    k = parentOf.get(k);
  }
  return chain;
}
