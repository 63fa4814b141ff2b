import type { RouteContext } from '@bop/shared';

/**
 * The client address: the last X-Forwarded-For entry, the one the gateway set or appended. Earlier
 * entries come from the client and could be forged to dodge the sign-in limiter.
 */
export function clientIp(headers: RouteContext['headers']): string {
  const raw = headers['x-forwarded-for'];
  const last = (Array.isArray(raw) ? raw.join(',') : raw)?.split(',').pop()?.trim();
  return last && last.length <= 64 ? last : 'unknown';
}
