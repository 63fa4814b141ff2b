import type { ServerResponse } from 'node:http';
import type { EndpointRow } from '@bop/contracts';
import type { Transform } from 'node:stream';
import type { KitRequest, Principal } from '@bop/shared';

/** A catalogue row with everything the request path needs, computed once at start. */
export interface CompiledRoute {
  row: EndpointRow;
  /** `"GET /locations"` */
  key: string;
  /** the row's feature and its ancestors, nearest first (empty when always on) */
  featureChain: string[];
  isPublic: boolean;
  /** reachable while two-factor enrolment is pending */
  mfaExempt: boolean;
  /** a successful call may change who is who (revocations, roles, deactivations): drop the auth cache */
  changesIdentity: boolean;
  /** `POST /features/{key}:enable|disable` */
  featureToggle: 'enable' | 'disable' | null;
}

/** What identity said about a presented token, kept for a few seconds. */
export interface AuthEntry {
  principal: Principal;
  mfaEnrollmentRequired: boolean;
  expiresAt: number;
  /** rate-limit bucket */
  bucket: string;
  /** the internal token carrying this principal, reused until half its life is gone */
  internalToken?: string;
  internalTokenUntil?: number;
}

/** Per-request state of the gateway's request path. */
export interface RequestState {
  route?: CompiledRoute;
  params?: Record<string, string>;
  auth?: AuthEntry;
  /** rate-limit headers already set */
  limited: boolean;
  ip?: string;
  /** the body, when the gateway had to read it (idempotent POSTs) */
  body?: Buffer;
  /** an idempotent upload streams on through this tap, which hashes it as it goes */
  bodyTap?: Transform & { hex(): string };
  /** the idempotency record this request holds */
  idempotency?: { scope: string; key: string };
  startedAt: number;
  /** called with a buffered upstream answer before it is sent (idempotent POSTs) */
  onAnswer?: (status: number, headers: Record<string, string | string[] | undefined>, body: Buffer) => Promise<void>;
  /** called when no answer came (upstream down, timeout) */
  onNoAnswer?: () => Promise<void>;
}

export interface GatewayRequest extends KitRequest {
  id: string;
  gw: RequestState;
}

export type Step = (req: GatewayRequest, res: ServerResponse) => void | Promise<void>;
