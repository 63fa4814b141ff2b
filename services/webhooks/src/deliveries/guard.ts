import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { blockedAddressReason } from '../endpoints/addresses';
import { isIpLiteral } from '../endpoints/urls';

/** A target refused by the SSRF guard (spec: never private, loopback or link-local unless allowed). */
export class AddressRefused extends Error {
  readonly code = 'ADDRESS_REFUSED';
}

function refusal(host: string, address: string, reason: string): AddressRefused {
  return new AddressRefused(host === address ? `${address} is ${reason}` : `${host} resolves to ${address}, which is ${reason}`);
}

/** Resolves a host and checks every address it resolves to; throws AddressRefused or the DNS error. */
export async function resolveAllowed(host: string, allowPrivate: boolean): Promise<string[]> {
  if (isIpLiteral(host)) {
    const reason = allowPrivate ? null : blockedAddressReason(host);
    if (reason) throw refusal(host, host, reason);
    return [host];
  }
  const addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  if (!allowPrivate) {
    for (const a of addresses) {
      const reason = blockedAddressReason(a.address);
      if (reason) throw refusal(host, a.address, reason);
    }
  }
  return addresses.map((a) => a.address);
}

/**
 * The `lookup` of every connection the sender opens: resolves once, refuses the host when any address
 * is blocked, and hands net.connect exactly the checked addresses (no second resolution to rebind).
 * IP literals never reach a lookup; the sender checks them itself.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (!allowPrivate) {
        for (const a of addresses) {
          const reason = blockedAddressReason(a.address);
          if (reason) return callback(refusal(hostname, a.address, reason) as NodeJS.ErrnoException, '', 0);
        }
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
