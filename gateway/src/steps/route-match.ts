import { endpoints, endpointKey, featureChain, isRouteMatch, RouteTable, type HttpMethod } from '@bop/contracts';
import { ApiError } from '@bop/shared';
import type { CompiledRoute, GatewayRequest } from '../context';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Two-factor enrolment pending: only these let the person through (to enrol, or to see who they are). */
const MFA_EXEMPT = new Set(['POST /auth/mfa/enrollment', 'POST /auth/mfa/enrollment:confirm', 'GET /auth/session', 'GET /me']);

export function compileRoute(row: (typeof endpoints)[number]): CompiledRoute {
  const key = endpointKey(row);
  const toggle = /^\/features\/\{key\}:(enable|disable)$/.exec(row.path);
  return {
    row,
    key,
    featureChain: row.feature ? featureChain(row.feature) : [],
    isPublic: row.people === 'public',
    mfaExempt: MFA_EXEMPT.has(key),
    // changes to people's rights or to integrations (pause, rotate, delete) apply at once from this
    // gateway; other gateways learn them from identity's events. Signing in changes nobody's rights.
    changesIdentity: (row.service === 'identity' || row.service === 'integrations') && row.method !== 'GET' && row.people !== 'public' && row.people !== 'integration_only',
    featureToggle: row.method === 'POST' && toggle ? (toggle[1] as 'enable' | 'disable') : null,
  };
}

/** The catalogue as one precompiled table, paths relative to /api/v1 (host-level `/api/...` rows live elsewhere). */
export function compileRouteTable(rows = endpoints): RouteTable<CompiledRoute> {
  const table = new RouteTable<CompiledRoute>();
  for (const row of rows) {
    if (row.service === 'gateway' && row.path.startsWith('/api/')) continue;
    table.add(row.method, row.path, compileRoute(row));
  }
  return table;
}

export type RouteLookup = { route: CompiledRoute; params: Record<string, string> } | { allowed: HttpMethod[] } | null;

export function lookupRoute(table: RouteTable<CompiledRoute>, method: string, path: string): RouteLookup {
  const m = table.match(method, path);
  if (m === null) return null;
  if (isRouteMatch(m)) return { route: m.value, params: m.params };
  return { allowed: METHODS.filter((other) => isRouteMatch(table.match(other, path))) };
}

/** Step 2: the catalogue row of the request. Unknown path → 404 `not_found`; known path, other method → 404 with `Allow`. */
export function routeMatch(table: RouteTable<CompiledRoute>) {
  return (req: GatewayRequest): void => {
    const found = lookupRoute(table, req.method, req.path);
    if (found === null) throw new ApiError('not_found', `No endpoint at ${req.method} ${req.path}.`);
    if ('allowed' in found) {
      throw new ApiError(
        'not_found',
        `${req.path} has no ${req.method} endpoint; it accepts ${found.allowed.join(', ')}.`,
        undefined,
        undefined,
        { Allow: found.allowed.join(', ') },
      );
    }
    req.gw.route = found.route;
    req.gw.params = found.params;
  };
}
