import type { AreaService } from '@bop/contracts';
import { ApiError, ValidationError, type FieldError } from './errors';
import { InternalTokenSigner, systemPrincipal, INTERNAL_TOKEN_HEADER } from './auth';
import { startClientSpan, type TraceContext } from './telemetry/trace-context';

export interface ServiceAnswer<T = any> {
  status: number;
  body: T;
}

/**
 * One JSON call the platform makes to itself over HTTP (a service's command to another, the gateway's
 * calls to identity and the services): the body sent as JSON, the answer's body parsed as JSON (or
 * its text when it is not). Under traced work it is a client span the callee continues
 * (startClientSpan; `trace` names the caller's context where the thread carries none across awaits:
 * the gateway's). A call that gets no answer within `timeoutMs` or fails on the way rejects.
 */
export async function callJson<T = any>(
  url: string,
  opts: { method: string; headers: Record<string, string>; body?: unknown; timeoutMs: number; trace?: TraceContext },
): Promise<ServiceAnswer<T>> {
  const span = startClientSpan(opts.method, url, opts.headers, opts.trace);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: opts.method, headers: opts.headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: AbortSignal.timeout(opts.timeoutMs) });
    text = await res.text();
  } catch (err) {
    span?.end(null, err);
    throw err;
  }
  span?.end(res.status);
  let parsed: any = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed as T };
}

/**
 * Calls another service's documented internal commands (`/internal/...`) with a system token.
 * Needs the internal signing key (INTERNAL_JWT_PRIVATE_KEY) and the service's URL (SERVICE_URL_<NAME>).
 * Unreachable → 503 `service_unavailable`; the service's own answers (2xx or problems) are returned.
 */
export class ServiceClient {
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly urls: Partial<Record<AreaService, string>>,
    private readonly signer: InternalTokenSigner | null,
    private readonly timeoutMs = 10_000,
  ) {}

  has(service: AreaService): boolean {
    return Boolean(this.urls[service]) && this.signer !== null;
  }

  async call<T = any>(service: AreaService, method: string, path: string, body?: unknown, requestId?: string): Promise<ServiceAnswer<T>> {
    const base = this.urls[service];
    if (!base || !this.signer) {
      throw new ApiError('service_unavailable', `The ${service} service is not configured here (SERVICE_URL_${service.toUpperCase()} and INTERNAL_JWT_PRIVATE_KEY).`);
    }
    const headers: Record<string, string> = { [INTERNAL_TOKEN_HEADER]: await this.systemToken() };
    if (requestId) headers['x-request-id'] = requestId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await callJson<T>(`${base.replace(/\/$/, '')}${path}`, { method, headers, body, timeoutMs: this.timeoutMs });
    } catch (err) {
      throw new ApiError('service_unavailable', `The ${service} service did not answer (${(err as Error).message}).`);
    }
  }

  private async systemToken(): Promise<string> {
    const now = Date.now();
    if (this.token && now < this.token.until) return this.token.value;
    const value = await this.signer!.sign(systemPrincipal);
    this.token = { value, until: now + 30_000 };
    return value;
  }
}

export interface CommandOptions {
  /** what the call does, for error details ("reserve the stock") */
  what: string;
  /** the answers that are success */
  ok: number[];
  requestId?: string;
  /** the collaborator's 422 field errors (for what we forwarded from the request) come back under this path prefix */
  fieldPrefix?: string;
  /**
   * The collaborator's own refusals answered to our caller as they are (same code, detail and
   * errors — paths mapped by `mapPath`), e.g. inventory's 422 `insufficient_stock` for an order.
   */
  forward?: Array<ApiError['code']>;
  mapPath?: (path: string) => string;
}

/**
 * A collaborator's internal command, as our own error when it fails: unreachable or 5xx → 503
 * `service_unavailable`; refusals named in `forward` → the same problem; its field errors (with
 * `fieldPrefix`) → 422 with our paths; anything else is a fault between services → 500.
 */
export async function callCommand<T>(client: ServiceClient, service: AreaService, method: string, path: string, body: unknown, o: CommandOptions): Promise<T> {
  const res = await client.call<T>(service, method, path, body, o.requestId);
  if (o.ok.includes(res.status)) return res.body;
  const answer = res.body as any;
  if (res.status >= 500) throw new ApiError('service_unavailable', `The ${service} service could not ${o.what} just now (${res.status}); retry later.`);
  const mapErrors = (errors: unknown): FieldError[] | undefined =>
    Array.isArray(errors) ? errors.map((e: FieldError) => ({ path: o.mapPath ? o.mapPath(e.path) : e.path, message: e.message })) : undefined;
  if (o.forward?.includes(answer?.code)) throw new ApiError(answer.code, answer.detail, mapErrors(answer.errors));
  if (res.status === 422 && o.fieldPrefix !== undefined && Array.isArray(answer?.errors)) {
    const errors: FieldError[] = answer.errors.map((e: FieldError) => ({ path: o.fieldPrefix && e.path ? `${o.fieldPrefix}.${e.path}` : e.path || o.fieldPrefix!, message: e.message }));
    throw new ValidationError(errors, answer.detail ?? `The ${service} service refused it.`);
  }
  throw new ApiError('internal_error', `The ${service} service refused to ${o.what} (${res.status} ${answer?.code ?? ''}).`);
}
