import type { z } from 'zod';
import type { Heartbeat } from '@bop/contracts';
import type { Clock, EntityManager } from '@bop/shared';
import { findIntegration } from '../integrations/store';
import { healthDto } from './dto';

// spec supplement: Integration health any → the reported ok|warning|error; last heartbeat and message updated
export function recordHeartbeat(em: EntityManager, id: string, heartbeat: z.output<typeof Heartbeat>, clock: Clock) {
  return em.transactional(async (tem) => {
    const row = await findIntegration(tem, id, true);
    const now = clock.now();
    // not a change of the record: no version, no event (heartbeats come every few minutes)
    row.reportedHealth = heartbeat.health;
    row.healthMessage = heartbeat.message ?? null;
    row.lastHeartbeatAt = now;
    return healthDto(row, now);
  });
}
