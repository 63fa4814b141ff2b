import type { AreaService } from '@bop/contracts';
import { ApiError, ServiceUnavailable, type Logger } from '@bop/shared';
import type { CompiledRoute } from './context';
import { callService, type CachedToken } from './internal';

export interface ServiceReadiness {
  status: 'ready' | 'not_ready' | 'unreachable';
  url: string;
  pending?: string[];
  error?: string;
}

/**
 * The configured services and the catalogue keys each one serves (`GET /internal/routes`), refreshed
 * every few seconds. A row is answered only by a service that says it serves it.
 */
export class Upstreams {
  readonly urls: Map<AreaService, string>;
  /** last known answer per service; absent = never reached */
  private readonly served = new Map<AreaService, Set<string>>();
  private unionCache: Set<string> | null = null;
  /** bumped whenever a served set changes (OpenAPI cache key) */
  version = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly lastPoke = new Map<AreaService, number>();
  private readonly asking = new Map<AreaService, Promise<void>>();
  private readonly down = new Set<AreaService>();

  constructor(
    urls: Partial<Record<AreaService, string>>,
    private readonly token: CachedToken,
    private readonly log: Logger,
    private readonly refreshSeconds: number,
  ) {
    this.urls = new Map(
      Object.entries(urls)
        .filter(([, u]) => !!u)
        .map(([k, u]) => [k as AreaService, (u as string).replace(/\/$/, '')]),
    );
  }

  start(): void {
    this.timer = setInterval(() => void this.refresh(), this.refreshSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async refresh(): Promise<void> {
    await Promise.all([...this.urls.keys()].map((s) => this.refreshOne(s)));
  }

  private async refreshOne(service: AreaService): Promise<void> {
    const url = this.urls.get(service)!;
    try {
      const r = await callService(url, 'GET', '/internal/routes', { token: await this.token.get(), timeoutMs: 3000 });
      if (r.status !== 200 || !Array.isArray(r.body?.served)) throw new Error(`GET /internal/routes answered ${r.status}`);
      const next = new Set<string>(r.body.served as string[]);
      const prev = this.served.get(service);
      if (!prev || prev.size !== next.size || [...next].some((k) => !prev.has(k))) {
        this.served.set(service, next);
        this.unionCache = null;
        this.version++;
        this.log.info({ service, served: next.size }, 'served endpoints updated');
      }
      if (this.down.delete(service)) this.log.info({ service }, 'service reachable again');
    } catch (err) {
      // keep the last known set: a service that went away answers 503, not 404
      if (!this.down.has(service)) {
        this.down.add(service);
        this.log.warn({ service, url, err: (err as Error).message }, 'service unreachable; its endpoints answer 503 until it is back');
      }
    }
  }

  /** Every served catalogue key of every reachable service. */
  servedKeys(): Set<string> {
    if (!this.unionCache) {
      const all = new Set<string>();
      for (const set of this.served.values()) for (const k of set) all.add(k);
      this.unionCache = all;
    }
    return this.unionCache;
  }

  /**
   * Throws unless a reachable service serves the row: 404 when this deployment lacks it, 503 when its
   * service is not reached yet. A service never reached is asked again first (the request waits for
   * that answer: a start-up refresh that timed out on a busy machine must not turn the first requests into 503s).
   */
  async requireServed(route: CompiledRoute): Promise<string> {
    const service = route.row.service as AreaService;
    const url = this.urls.get(service);
    if (!url) throw new ApiError('not_found', `${route.key} is not available in this deployment.`);
    let set = this.served.get(service);
    if (!set) {
      await this.poke(service);
      set = this.served.get(service);
      if (!set) throw new ServiceUnavailable(`The ${service} service is not reachable; retry with backoff.`);
    }
    if (!set.has(route.key)) throw new ApiError('not_found', `${route.key} is not available in this deployment.`);
    return url;
  }

  /** Asks a service not reached yet again without waiting for the timer: joins the ask in flight, else at most one a second. */
  private poke(service: AreaService): Promise<void> {
    const running = this.asking.get(service);
    if (running) return running;
    const now = Date.now();
    if ((this.lastPoke.get(service) ?? 0) + 1000 > now) return Promise.resolve();
    this.lastPoke.set(service, now);
    const ask = this.refreshOne(service).finally(() => this.asking.delete(service));
    this.asking.set(service, ask);
    return ask;
  }

  /** Each service's `GET /ready` (database reachable, migrations current). */
  async readiness(): Promise<Record<string, ServiceReadiness>> {
    const entries = await Promise.all(
      [...this.urls.entries()].map(async ([service, url]): Promise<[string, ServiceReadiness]> => {
        try {
          const r = await callService(url, 'GET', '/ready', { timeoutMs: 3000 });
          const pending = Array.isArray(r.body?.pending) ? (r.body.pending as string[]) : undefined;
          const error = typeof r.body?.error === 'string' ? (r.body.error as string) : undefined;
          return [service, { status: r.status === 200 ? 'ready' : 'not_ready', url, ...(pending ? { pending } : {}), ...(error ? { error } : {}) }];
        } catch (err) {
          return [service, { status: 'unreachable', url, error: (err as Error).message }];
        }
      }),
    );
    return Object.fromEntries(entries);
  }
}
