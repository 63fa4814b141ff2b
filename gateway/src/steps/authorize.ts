import type { EndpointRow } from '@bop/contracts';
import { ApiError, Forbidden, type Principal } from '@bop/shared';
import type { CompiledRoute, GatewayRequest } from '../context';

/**
 * The catalogue's access rule for a principal: null when it may call the row, else the 403 to answer.
 * Integration keys need the row's scope exactly (a `:write` scope does not imply `:read`); people need
 * the row's permission at any reach (the service checks the reach against the record).
 */
export function accessDenial(row: Pick<EndpointRow, 'key' | 'people'>, principal: Principal): ApiError | null {
  if (principal.kind === 'integration') {
    if (row.key === 'not_allowed') return new Forbidden('Integration keys may not call this endpoint.');
    if (row.key === 'any') return null;
    if (!principal.scopes?.includes(row.key.scope)) return new Forbidden(`The key lacks the scope ${row.key.scope}.`);
    return null;
  }
  if (principal.kind === 'user') {
    const rule = row.people;
    if (rule === 'integration_only') return new Forbidden('Only integration keys may call this endpoint.');
    if (typeof rule === 'object') {
      if (rule.orSelf) return null; // the caller's own data passes without it: the service decides
      const reaches = principal.permissions?.[rule.permission];
      if (!reaches || reaches.length === 0) return new Forbidden(`You lack the permission ${rule.permission}.`);
    }
    return null; // anyone, self (the service limits it to the caller's data), public
  }
  return new Forbidden('This credential may not call the API.');
}

/** Step 5: scope for integration keys, permission (any reach) for people; pending two-factor enrolment first. */
export function authorize() {
  return (req: GatewayRequest): void => {
    const route: CompiledRoute = req.gw.route!;
    const auth = req.gw.auth;
    if (!auth) return; // public row
    if (auth.mfaEnrollmentRequired && auth.principal.kind === 'user' && !route.mfaExempt) {
      throw new ApiError('mfa_enrollment_required', 'Your company requires two-factor authentication: set it up at POST /auth/mfa/enrollment.');
    }
    const denial = accessDenial(route.row, auth.principal);
    if (denial) throw denial;
  };
}
