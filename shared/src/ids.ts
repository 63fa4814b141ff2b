import { monotonicFactory } from 'ulid';
import { idPrefixes, type IdKind } from '@bop/contracts';

const ulid = monotonicFactory();

/** A type prefix plus a time-ordered ULID, e.g. `loc_01JD3…`; ids sort by creation time. */
export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${ulid()}`;
}

export function newIdWithPrefix(prefix: string): string {
  return `${prefix}_${ulid()}`;
}
