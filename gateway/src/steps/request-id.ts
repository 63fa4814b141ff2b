import { randomFillSync } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { idPrefixes } from '@bop/contracts';
import type { GatewayRequest } from '../context';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * `req_` + a ULID (48-bit time, 80 random bits, Crockford base32), drawing randomness from a pooled
 * buffer: the kit's generator asks the OS once per character, too slow for every request.
 */
export function newRequestId(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (offset + 16 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[pool[offset++] & 31];
  return `${idPrefixes.request}_${time}${rand}`;
}

/** Step 1: take a sane incoming `X-Request-Id` or make `req_…`; echo it on every response (and log line). */
export function startRequest(req: GatewayRequest, res: ServerResponse): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
  req.id = id;
  req.gw = { limited: false, startedAt: performance.now() };
  res.setHeader('X-Request-Id', id);
}
