import { callJson, InternalTokenSigner, INTERNAL_TOKEN_HEADER, type Principal, type ServiceAnswer, type TraceContext } from '@bop/shared';

/** Internal tokens live 60 s; one is reused for half of that, so a service always gets one with 30 s or more left. */
export const TOKEN_REUSE_MS = 30_000;

/** A signed internal token for a fixed principal (the gateway itself, or anonymous callers of public rows). */
export class CachedToken {
  private token = '';
  private until = 0;
  constructor(
    private readonly signer: InternalTokenSigner,
    private readonly principal: Principal,
  ) {}
  async get(): Promise<string> {
    const now = Date.now();
    if (now < this.until) return this.token;
    this.token = await this.signer.sign(this.principal);
    this.until = now + TOKEN_REUSE_MS;
    return this.token;
  }
}

export const gatewayPrincipal: Principal = { kind: 'system', via: 'internal', id: 'system' };
/** Who calls a public row (signing in): nobody yet. Services see it only on rows that need no one. */
export { anonymousPrincipal } from '@bop/shared';

export type InternalAnswer = ServiceAnswer;

/** A JSON call from the gateway to a service (authentication, features, served routes, readiness). */
export async function callService(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; requestId?: string; timeoutMs?: number; trace?: TraceContext } = {},
): Promise<InternalAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.token) headers[INTERNAL_TOKEN_HEADER] = opts.token;
  if (opts.requestId) headers['x-request-id'] = opts.requestId;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  // under a traced request, a client span the service continues (`trace`: the gateway's thread carries no context across awaits)
  return callJson(`${base}${path}`, { method, headers, body: opts.body, timeoutMs: opts.timeoutMs ?? 5000, trace: opts.trace });
}
