import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing secrets are issued as `whsec_` + base64 of 32 random bytes. The two signatures of a delivery
 * key their HMAC differently, each by its own rule:
 * - `Service-Signature` (spec: Events, Signature 1): the secret exactly as issued, i.e. the UTF-8 bytes
 *   of the whole `whsec_…` text. This is what a receiver following the spec, or Stripe's
 *   `webhooks.constructEvent(body, header, secret)`, computes.
 * - `webhook-signature` (Standard Webhooks): the base64-decoded bytes after `whsec_`, as the
 *   `standardwebhooks` packages do.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The Standard Webhooks key: the bytes the base64 after `whsec_` encodes. */
export function standardKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a whsec_ secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** spec: Events, Signature 1 — hex HMAC-SHA256 keyed with the secret as issued, over `<t>.<raw body>` */
export function serviceSignature(secret: string, t: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`, 'utf8').digest('hex');
}

/** Standard Webhooks: base64 HMAC-SHA256 keyed with the decoded secret, over `<id>.<t>.<raw body>` */
export function standardSignature(secret: string, id: string, t: number, body: string): string {
  return createHmac('sha256', standardKey(secret)).update(`${id}.${t}.${body}`, 'utf8').digest('base64');
}

export interface SignInput {
  eventId: string;
  eventType: string;
  body: string;
  /** unix seconds of this attempt */
  t: number;
  /** the secrets (`whsec_…`, as issued) that sign: the current one first, then the previous one while it still signs (24 h after a rotation) */
  secrets: string[];
}

export const USER_AGENT = 'Service-Webhooks/1';

/**
 * Every header of one attempt (spec: Events, Headers; plus the Standard Webhooks trio). Each signing
 * secret adds one `v1=` to `Service-Signature` and one `v1,` to `webhook-signature`; receivers accept
 * the delivery when any of them matches.
 */
export function deliveryHeaders(input: SignInput): Record<string, string> {
  const { eventId, eventType, body, t, secrets } = input;
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'service-event-id': eventId,
    'service-event-type': eventType,
    'service-signature': [`t=${t}`, ...secrets.map((s) => `v1=${serviceSignature(s, t, body)}`)].join(','),
    'webhook-id': eventId,
    'webhook-timestamp': String(t),
    'webhook-signature': secrets.map((s) => `v1,${standardSignature(s, eventId, t, body)}`).join(' '),
  };
}

/** The secrets that sign now: the current one, plus the previous one until it expires. */
export function signingSecrets(secret: string, previous: string | null, previousUntil: Date | null, now: Date): string[] {
  const secrets = [secret];
  if (previous && previousUntil && previousUntil.getTime() > now.getTime()) secrets.push(previous);
  // both schemes need a whsec_ secret: refuse a malformed one before anything is sent
  for (const s of secrets) standardKey(s);
  return secrets;
}

/** A rotated-out secret keeps signing alongside the new one for this long. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;
