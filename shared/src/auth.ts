import { SignJWT, jwtVerify, importSPKI, importPKCS8, generateKeyPair, exportSPKI, exportPKCS8, type CryptoKey, type KeyObject } from 'jose';
import { ApiError } from './errors';

/** A reach: where a person's permission applies. */
export type Reach =
  | { type: 'everyone' }
  | { type: 'org_units'; ids: string[] }
  | { type: 'locations'; ids: string[] }
  | { type: 'employee_set'; ids: string[] };

/** Who is calling, as the gateway established it; carried to services in the internal token. */
export interface Principal {
  /** `anonymous`: a caller of a public row (signing in); `system`: the platform itself (internal routes) */
  kind: 'user' | 'integration' | 'system' | 'anonymous';
  via: 'session' | 'personal_key' | 'integration_key' | 'internal' | 'public';
  /** usr_…, int_… or `system` */
  id: string;
  userId?: string;
  integrationId?: string;
  employeeId?: string | null;
  keyId?: string;
  sessionId?: string;
  /** integration keys */
  scopes?: string[];
  /** people: permission name → reaches (union over assignments) */
  permissions?: Record<string, Reach[]>;
  /** set by a service for the employee area (`/me/…`): events and audit entries name the employee as the actor */
  actingAsEmployee?: boolean;
}

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
const ISSUER = 'bop-gateway';
const AUDIENCE = 'bop-services';
export const INTERNAL_TOKEN_TTL_S = 60;

type Key = CryptoKey | KeyObject;

export interface InternalKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

export async function generateInternalKeyPair(): Promise<InternalKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { privateKeyPem: await exportPKCS8(privateKey), publicKeyPem: await exportSPKI(publicKey) };
}

function pem(text: string): string {
  return text.includes('-----BEGIN') ? text : Buffer.from(text, 'base64').toString('utf8');
}

/** Signs internal tokens (gateway side). */
export class InternalTokenSigner {
  private constructor(private readonly key: Key) {}
  static async fromPem(privateKeyPem: string): Promise<InternalTokenSigner> {
    return new InternalTokenSigner(await importPKCS8(pem(privateKeyPem), 'EdDSA'));
  }
  async sign(principal: Principal, ttlSeconds = INTERNAL_TOKEN_TTL_S): Promise<string> {
    return new SignJWT({ p: principal })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(principal.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }
}

/** Verifies internal tokens (service side), remembering verified tokens until they expire. */
export class InternalTokenVerifier {
  private readonly cache = new Map<string, { principal: Principal; exp: number }>();
  private constructor(private readonly key: Key) {}
  static async fromPem(publicKeyPem: string): Promise<InternalTokenVerifier> {
    return new InternalTokenVerifier(await importSPKI(pem(publicKeyPem), 'EdDSA'));
  }
  async verify(token: string): Promise<Principal | null> {
    const now = Math.floor(Date.now() / 1000);
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.exp > now) return hit.principal;
      this.cache.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['EdDSA'] });
      const principal = payload.p as Principal;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(token, { principal, exp: payload.exp ?? now });
      return principal;
    } catch {
      return null;
    }
  }
}

/** Who calls a public row (no credentials): reaches nothing, may call no internal route. */
export const anonymousPrincipal: Principal = { kind: 'anonymous', via: 'public', id: 'anonymous' };

/** The system principal services use for work nobody asked for over HTTP (bootstrap, time-based triggers). */
export const systemPrincipal: Principal = { kind: 'system', via: 'internal', id: 'system' };

/** `/me/…` is for accounts linked to an employee record: the caller's employee id, else 403 `not_linked_to_employee`. */
export function ownEmployeeId(principal: Principal): string {
  if (!principal.employeeId) throw new ApiError('not_linked_to_employee', 'Your account is not linked to an employee record; an administrator links it on the user (employeeId).');
  return principal.employeeId;
}

/** The event actor for a principal (spec: Events envelope `actor`). */
export function actorOf(principal: Principal | null): { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null } {
  if (!principal || principal.kind === 'system' || principal.kind === 'anonymous') return { type: 'system', id: null };
  if (principal.kind === 'integration') return { type: 'integration', id: principal.integrationId ?? principal.id };
  if (principal.actingAsEmployee && principal.employeeId) return { type: 'employee', id: principal.employeeId };
  return { type: 'user', id: principal.userId ?? principal.id };
}

/**
 * The reaches a principal has for a permission. `everyone` for integration keys and system (scopes are
 * checked at the gateway and cover every location), `none` when the person lacks the permission.
 */
export type ReachSet =
  | { everyone: true }
  | {
      everyone: false;
      orgUnitIds: Set<string>;
      locationIds: Set<string>;
      employeeSetIds: Set<string>;
      /** true when the kit has added the locations of `orgUnitIds` (and their sub-units) to `locationIds` */
      orgUnitsResolved?: boolean;
    };

export function reachFor(principal: Principal, permission: string | null): ReachSet | null {
  if (principal.kind === 'anonymous') return permission ? null : { everyone: true };
  if (principal.kind !== 'user') return { everyone: true };
  if (!permission) return { everyone: true };
  const reaches = principal.permissions?.[permission];
  if (!reaches || reaches.length === 0) return null;
  const set = { everyone: false as const, orgUnitIds: new Set<string>(), locationIds: new Set<string>(), employeeSetIds: new Set<string>() };
  for (const r of reaches) {
    if (r.type === 'everyone') return { everyone: true };
    const target = r.type === 'org_units' ? set.orgUnitIds : r.type === 'locations' ? set.locationIds : set.employeeSetIds;
    for (const id of r.ids) target.add(id);
  }
  return set;
}

/** Does the reach cover a location whose org-unit ancestry (nearest first) is `orgUnitPath`? */
export function reachCoversLocation(reach: ReachSet, locationId: string, orgUnitPath: string[]): boolean {
  if (reach.everyone) return true;
  if (reach.locationIds.has(locationId)) return true;
  return orgUnitPath.some((id) => reach.orgUnitIds.has(id));
}
