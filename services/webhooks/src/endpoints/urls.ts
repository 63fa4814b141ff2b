import { isIP } from 'node:net';

export interface UrlRules {
  /** plain http is accepted only when private networks or http are allowed (tests, local receivers) */
  allowHttp: boolean;
}

/** A webhook target: absolute https (or http when allowed), no credentials. Returns the normalised URL or the problem. */
export function checkUrl(raw: string, rules: UrlRules): { url: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: 'Must be an absolute URL such as https://hooks.example.com/bop.' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    return { error: rules.allowHttp ? 'Must be an http or https URL.' : 'Must be an https URL.' };
  }
  if (url.username || url.password) return { error: 'Must not carry credentials; verify deliveries by their signature.' };
  if (!url.hostname) return { error: 'Must name a host.' };
  url.hash = '';
  return { url };
}

/** The host as net.connect wants it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

export function isIpLiteral(host: string): boolean {
  return isIP(host) !== 0;
}
