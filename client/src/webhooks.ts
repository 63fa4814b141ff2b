import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyOptions {
  /** the oldest (and furthest ahead) timestamp accepted, in seconds (spec: 5 minutes) */
  toleranceSeconds?: number;
  /** now, for the timestamp check (default the clock) */
  now?: Date;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Whether a webhook delivery is genuine (spec: Events, Signature): `Service-Signature` is
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (one v1 per signing secret while a rotated-out one still
 * signs); a v1 must equal the hex HMAC-SHA256, keyed with the secret as issued (`whsec_…`), of
 * `<t>.<raw body>`, compared in constant time, and t must be within 5 minutes of now. Pass the body's
 * exact bytes, before any JSON parsing.
 */
export function verifyWebhookSignature(secret: string, headers: HeaderBag, rawBody: string | Uint8Array, options: VerifyOptions = {}): boolean {
  const value = header(headers, 'service-signature');
  if (!value) return false;
  const parts = value.split(',').map((p) => p.trim());
  const t = parts.find((p) => p.startsWith('t='))?.slice(2);
  if (!t || !/^\d+$/.test(t)) return false;
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (Math.abs(now - Number(t)) > (options.toleranceSeconds ?? 300)) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.`, 'utf8').update(body).digest();
  return parts
    .filter((p) => p.startsWith('v1='))
    .map((p) => Buffer.from(p.slice(3), 'hex'))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}
