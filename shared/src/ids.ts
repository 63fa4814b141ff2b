import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { idPrefixes, type IdKind } from '@bop/contracts';

const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * ulid's randomness from the OS in 4 KB draws instead of one call per character (16 per id): one
 * byte per character, `byte / 256` as ulid's PRNG contract asks. Same source (the OS CSPRNG), a
 * fraction of the calls; bench/gateway.ts: the id was 2.4% of a service's CPU on GET /locations.
 */
function pooledRandom(): number {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++] / 256;
}

const ulid = monotonicFactory(pooledRandom);

/** A type prefix plus a time-ordered ULID, e.g. `loc_01JD3…`; ids sort by creation time. */
export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${ulid()}`;
}

export function newIdWithPrefix(prefix: string): string {
  return `${prefix}_${ulid()}`;
}
