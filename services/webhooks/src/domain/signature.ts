import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing secrets follow the Standard Webhooks convention: `whsec_` + base64 of 32 random bytes.
 * The HMAC key of both schemes is the decoded bytes (not the `whsec_…` text); receivers decode the
 * part after `whsec_` from base64 and use those bytes as the key.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** spec: Events, Signature 1 — hex HMAC-SHA256 over `<t>.<raw body>` */
export function serviceSignature(key: Buffer, t: number, body: string): string {
  return createHmac('sha256', key).update(`${t}.${body}`).digest('hex');
}

/** Standard Webhooks: base64 HMAC-SHA256 over `<id>.<t>.<raw body>` */
export function standardSignature(key: Buffer, id: string, t: number, body: string): string {
  return createHmac('sha256', key).update(`${id}.${t}.${body}`).digest('base64');
}

export interface SignInput {
  eventId: string;
  eventType: string;
  body: string;
  /** unix seconds of this attempt */
  t: number;
  /** the current key first, then the previous one while it still signs (24 h after a rotation) */
  keys: Buffer[];
}

export const USER_AGENT = 'Service-Webhooks/1';

/** Every header of one attempt (spec: Events, Headers; plus the Standard Webhooks trio). */
export function deliveryHeaders(input: SignInput): Record<string, string> {
  const { eventId, eventType, body, t, keys } = input;
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'service-event-id': eventId,
    'service-event-type': eventType,
    'service-signature': [`t=${t}`, ...keys.map((k) => `v1=${serviceSignature(k, t, body)}`)].join(','),
    'webhook-id': eventId,
    'webhook-timestamp': String(t),
    'webhook-signature': keys.map((k) => `v1,${standardSignature(k, eventId, t, body)}`).join(' '),
  };
}

/** The keys that sign now: the current secret, plus the previous one until it expires. */
export function signingKeys(secret: string, previous: string | null, previousUntil: Date | null, now: Date): Buffer[] {
  const keys = [secretKey(secret)];
  if (previous && previousUntil && previousUntil.getTime() > now.getTime()) keys.push(secretKey(previous));
  return keys;
}

/** A rotated-out secret keeps signing alongside the new one for this long. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;
