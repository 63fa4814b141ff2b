import { features as featureDefs } from '@bop/contracts';
import { ApiError, type Logger } from '@bop/shared';
import type { GatewayRequest } from '../context';
import { callService, type CachedToken } from '../internal';

const planned = new Set(featureDefs.filter((f) => f.planned).map((f) => f.key));

/**
 * Feature switches as identity holds them, polled every few seconds and updated at once when this
 * gateway passes a successful `POST /features/{key}:enable|disable`. Until identity has answered
 * once, every feature counts as on (and that is logged).
 */
export class FeatureSwitches {
  /** key → switched on; absent = not known yet (treated as on) */
  private readonly enabled = new Map<string, boolean>();
  private known = false;
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  /** a read started before the latest local toggle may carry the old state: it is dropped */
  private seq = 0;
  private toggledAt = 0;
  /** bumped on every change (OpenAPI cache key) */
  version = 0;

  constructor(
    private readonly identityUrl: string | undefined,
    private readonly token: CachedToken,
    private readonly log: Logger,
    private readonly refreshSeconds: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.refresh(), this.refreshSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get loaded(): boolean {
    return this.known;
  }

  async refresh(): Promise<void> {
    if (!this.identityUrl) return;
    const started = ++this.seq;
    try {
      const r = await callService(this.identityUrl, 'GET', '/internal/features', { token: await this.token.get(), timeoutMs: 3000 });
      if (r.status !== 200 || !Array.isArray(r.body?.features)) throw new Error(`GET /internal/features answered ${r.status}`);
      if (started < this.toggledAt) return;
      let changed = !this.known;
      for (const f of r.body.features as Array<{ key: string; enabled: boolean }>) {
        if (this.enabled.get(f.key) !== f.enabled) {
          this.enabled.set(f.key, f.enabled);
          changed = true;
        }
      }
      this.known = true;
      if (changed) this.version++;
      if (this.failing) this.log.info('feature switches readable again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) {
        this.log.warn(
          { err: (err as Error).message },
          this.known ? 'feature switches unreadable; keeping the last known states' : 'feature switches unreadable; treating every feature as on until identity answers',
        );
      }
      this.failing = true;
    }
  }

  /** A feature is on when it and every ancestor are switched on (and it is not planned). */
  isOn(chain: readonly string[]): boolean {
    for (const k of chain) if (this.enabled.get(k) === false || planned.has(k)) return false;
    return true;
  }

  /**
   * Applies a switch this gateway just saw succeed (as identity does: only that switch changes; its
   * children keep their own states and `isOn` follows the chain), then re-reads everything in the background.
   */
  applyToggle(key: string, on: boolean): void {
    this.toggledAt = ++this.seq;
    if (this.enabled.get(key) !== on) {
      this.enabled.set(key, on);
      this.version++;
    }
    void this.refresh();
  }
}

/** Step 3: a row of a switched-off feature answers 404 `feature_disabled`, before anything about the caller is checked. */
export function featureCheck(switches: FeatureSwitches) {
  return (req: GatewayRequest): void => {
    const route = req.gw.route!;
    if (route.featureChain.length > 0 && !switches.isOn(route.featureChain)) {
      throw new ApiError('feature_disabled', `The feature ${route.row.feature} is switched off.`);
    }
  };
}
