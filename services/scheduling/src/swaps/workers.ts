import { RoundWorker, type BackoffPolicy, type ServiceRuntime, type WorkerDef } from '@bop/shared';
import type { SchedulingConfig } from '../config';
import { expireStartedSwaps } from './store';

const BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 30_000 };

/** Supplement: a pending shift swap expires when its shift starts; this loop finds them on the kit's clock. */
export class SwapExpiryWorker extends RoundWorker {
  readonly name = 'shift-swap-expiry';

  constructor(private readonly svc: ServiceRuntime<SchedulingConfig>) {
    super(svc.log, BACKOFF);
  }

  protected override failureMessage(): string {
    return 'scheduling: expiring shift swaps failed';
  }

  protected async round(): Promise<number> {
    const expired = await expireStartedSwaps(this.svc.orm.em.fork());
    return expired > 0 ? 0 : this.svc.config.SCHEDULING_SWAP_EXPIRY_POLL_MS;
  }
}

export const swapWorkers = (svc: ServiceRuntime<SchedulingConfig>): WorkerDef[] => [new SwapExpiryWorker(svc)];
