import type { z } from 'zod';
import type { Heartbeat } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { findIntegration } from '../integrations/store';
import { healthDto } from './dto';

// spec supplement: Integration health any → the reported ok|warning|error; last heartbeat and message updated
export async function recordHeartbeat(w: Work, id: string, heartbeat: z.output<typeof Heartbeat>) {
  const row = await findIntegration(w, id, true);
  // not a change of the record: no version, no event (heartbeats come every few minutes)
  row.reportedHealth = heartbeat.health;
  row.healthMessage = heartbeat.message ?? null;
  row.lastHeartbeatAt = w.now;
  return healthDto(row, w.now);
}
