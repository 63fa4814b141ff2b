// The producer's partitioner: kafkajs's DefaultPartitioner (Java's murmur2 of the key), cheaper per message.
import { Partitioners, type ICustomPartitioner, type PartitionerArgs } from 'kafkajs';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/**
 * Java's `Utils.murmur2` of `data`'s bytes (a signed 32-bit int), as kafkajs's DefaultPartitioner
 * computes it, in 32-bit integer arithmetic (kafkajs uses 64-bit `Long` objects: ~6 allocations a
 * 4-byte block; the relay hashed every event's key so).
 */
export function murmur2(data: Uint8Array | string): number {
  let length: number;
  let byte: (i: number) => number;
  if (typeof data === 'string') {
    // an ASCII key (the record ids) is its own UTF-8 (as many bytes as characters: any other character
    // takes two or more); any other goes through a Buffer
    if (Buffer.byteLength(data, 'utf8') === data.length) {
      const s = data;
      length = s.length;
      byte = (i) => s.charCodeAt(i);
    } else {
      const b = Buffer.from(data, 'utf8');
      length = b.length;
      byte = (i) => b[i];
    }
  } else {
    const b = data;
    length = b.length;
    byte = (i) => b[i];
  }
  let h = SEED ^ length;
  const blocks = length >>> 2;
  for (let i = 0; i < blocks; i++) {
    const i4 = i * 4;
    let k = byte(i4) | (byte(i4 + 1) << 8) | (byte(i4 + 2) << 16) | (byte(i4 + 3) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // the last 1–3 bytes (Java's switch falling through from case 3 to case 1)
  const tail = length & ~3;
  const rest = length & 3;
  if (rest === 3) h ^= byte(tail + 2) << 16;
  if (rest >= 2) h ^= byte(tail + 1) << 8;
  if (rest >= 1) {
    h ^= byte(tail);
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * kafkajs's DefaultPartitioner for keyed messages — partition = positive(murmur2(key)) % partitions,
 * so every key keeps the partition (and its order) it had — with the hash above; a message with a
 * partition or without a key goes to kafkajs's own.
 */
export const KeyHashPartitioner: ICustomPartitioner = () => {
  const fallback = Partitioners.DefaultPartitioner();
  return (args: PartitionerArgs) => {
    const { message, partitionMetadata } = args;
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    if (message.key === null || message.key === undefined) return fallback(args);
    return (murmur2(message.key) & 0x7fffffff) % partitionMetadata.length;
  };
};
