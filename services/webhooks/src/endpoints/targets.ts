import { ValidationError } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { checkUrl, hostOf } from './urls';
import { AddressRefused, resolveAllowed } from '../deliveries/guard';

export interface TargetRules {
  allowPrivate: boolean;
  allowHttp: boolean;
}

export const targetRules = (c: WebhooksConfig): TargetRules => ({ allowPrivate: c.WEBHOOK_ALLOW_PRIVATE_NETWORKS, allowHttp: c.WEBHOOK_ALLOW_HTTP });

/**
 * A URL an endpoint may deliver to: https (http when allowed) and a host that resolves to public
 * addresses only (unless private networks are allowed). The worker checks again on every connection.
 */
export async function checkTarget(raw: string, rules: TargetRules, path: string): Promise<string> {
  const checked = checkUrl(raw, { allowHttp: rules.allowHttp || rules.allowPrivate });
  if ('error' in checked) throw new ValidationError([{ path, message: checked.error }]);
  const host = hostOf(checked.url);
  try {
    await resolveAllowed(host, rules.allowPrivate);
  } catch (err) {
    const message =
      err instanceof AddressRefused
        ? `Refused: ${err.message}; webhooks go to public addresses only (WEBHOOK_ALLOW_PRIVATE_NETWORKS).`
        : `The host ${host} does not resolve.`;
    throw new ValidationError([{ path, message }]);
  }
  return checked.url.href;
}
