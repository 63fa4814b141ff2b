import { InternalTokenSigner, INTERNAL_TOKEN_HEADER, startClientSpan, type Principal, type TraceContext } from '@bop/shared';

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

export interface InternalAnswer {
  status: number;
  body: any;
}

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
  // under a traced request (its context: the gateway's thread carries none across awaits), a client span identity continues
  const span = startClientSpan(method, `${base}${path}`, headers, opts.trace);
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
    });
    text = await res.text();
  } catch (err) {
    span?.end(null, err);
    throw err;
  }
  span?.end(res.status);
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, body };
}
