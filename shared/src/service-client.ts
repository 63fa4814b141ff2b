import type { AreaService } from '@bop/contracts';
import { ApiError } from './errors';
import { InternalTokenSigner, systemPrincipal, INTERNAL_TOKEN_HEADER } from './auth';

export interface ServiceAnswer<T = any> {
  status: number;
  body: T;
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
    let res: Response;
    try {
      res = await fetch(`${base.replace(/\/$/, '')}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new ApiError('service_unavailable', `The ${service} service did not answer (${(err as Error).message}).`);
    }
    const text = await res.text();
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

  private async systemToken(): Promise<string> {
    const now = Date.now();
    if (this.token && now < this.token.until) return this.token.value;
    const value = await this.signer!.sign(systemPrincipal);
    this.token = { value, until: now + 30_000 };
    return value;
  }
}
