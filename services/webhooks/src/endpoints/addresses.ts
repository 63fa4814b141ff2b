import { isIP } from 'node:net';

/**
 * Classifies a resolved address: null when it is a public unicast address a webhook may reach, or
 * the reason it is refused (SSRF guard; spec: deliveries never reach private, loopback or link-local
 * targets unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true). IPv6 forms that embed an IPv4 address
 * (mapped, compatible, NAT64, 6to4) are judged by that IPv4 address.
 */
export function blockedAddressReason(address: string): string | null {
  const kind = isIP(address);
  if (kind === 4) return blockedV4(parseV4(address)!);
  if (kind === 6) {
    const bytes = parseV6(address);
    return bytes ? blockedV6(bytes) : 'not an IP address';
  }
  return 'not an IP address';
}

type V4 = [number, number, number, number];

function parseV4(s: string): V4 | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const n = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return n.every((x) => x >= 0 && x <= 255) ? (n as V4) : null;
}

const v4Ranges: Array<[V4, number, string]> = [
  [[0, 0, 0, 0], 8, 'unspecified ("this network")'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared address space (carrier-grade NAT)'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, '6to4 relay anycast'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmarking'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

function v4Number(a: V4): number {
  return ((a[0] << 24) >>> 0) + (a[1] << 16) + (a[2] << 8) + a[3];
}

function blockedV4(a: V4): string | null {
  const n = v4Number(a);
  for (const [base, bits, reason] of v4Ranges) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if (((n & mask) >>> 0) === ((v4Number(base) & mask) >>> 0)) return reason;
  }
  return null;
}

/** 16 bytes, or null; accepts `::`, a trailing dotted quad and a zone id (`fe80::1%eth0`). */
export function parseV6(input: string): number[] | null {
  let s = input.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(':');
  if (lastColon >= 0 && s.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const words = [...head, ...rest].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  if (words.some(Number.isNaN)) return null;
  let all: number[];
  if (halves.length === 2) {
    if (words.length > 7) return null;
    all = [...words.slice(0, head.length), ...Array<number>(8 - words.length).fill(0), ...words.slice(head.length)];
  } else {
    if (words.length !== 8) return null;
    all = words;
  }
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

function startsWith(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const bit = 7 - (i & 7);
    if (((bytes[byte] >> bit) & 1) !== ((prefix[byte] >> bit) & 1)) return false;
  }
  return true;
}

const b = (...words: number[]) => words.flatMap((w) => [w >> 8, w & 0xff]).concat(Array(16 - words.length * 2).fill(0));

function blockedV6(x: number[]): string | null {
  const v4At = (offset: number): V4 => [x[offset], x[offset + 1], x[offset + 2], x[offset + 3]];
  if (x.every((v) => v === 0)) return 'unspecified';
  if (x.slice(0, 15).every((v) => v === 0) && x[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), ::ffff:0:a.b.c.d (translated)
  if (startsWith(x, b(0, 0, 0, 0, 0, 0xffff), 96)) return blockedV4(v4At(12)) ?? null;
  if (startsWith(x, b(0, 0, 0, 0, 0, 0), 96)) return blockedV4(v4At(12)) ?? 'IPv4-compatible';
  if (startsWith(x, b(0, 0, 0, 0, 0xffff, 0), 96)) return blockedV4(v4At(12)) ?? null;
  // NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16) reach the embedded IPv4 address
  if (startsWith(x, b(0x64, 0xff9b), 96)) return blockedV4(v4At(12));
  if (startsWith(x, b(0x64, 0xff9b, 1), 48)) return 'local-use NAT64';
  if (startsWith(x, b(0x2002), 16)) return blockedV4(v4At(2));
  if (startsWith(x, b(0x0100), 64)) return 'discard-only';
  if (startsWith(x, b(0x2001, 0x0db8), 32)) return 'documentation';
  if (startsWith(x, b(0x2001), 23)) return 'IETF protocol assignments';
  if (startsWith(x, b(0xfc00), 7)) return 'private (unique local)';
  if (startsWith(x, b(0xfe80), 10)) return 'link-local';
  if (startsWith(x, b(0xfec0), 10)) return 'site-local';
  if (startsWith(x, b(0xff00), 8)) return 'multicast';
  return null;
}
