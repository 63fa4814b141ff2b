import { defineWorker, type ServiceRuntime, type WorkerRound, type WorkerSpec } from '@bop/shared';
import type { OperationsConfig } from '../config';
import { raiseDueAlarms } from './store';
import { createReadingPartition, deleteExpiredReadings, dropReadingPartition, expiredReadingPartitions, missingReadingPartitions, retentionCutoff } from './partitions-store';

/** Sensors per pass of the alarm check. */
const TAKE = 500;

/**
 * The periodic alarm check (issue 19 item 4): a sensor whose latest reading is out of range raises its
 * alarm once its delay has passed by the clock with no newer reading (a probe that went quiet in a warm
 * fridge still alarms). Readings raise alarms themselves; this covers the silence after them.
 */
export const sensorAlarmCheck = (svc: ServiceRuntime<OperationsConfig>) =>
  defineWorker({
    name: 'sensor-alarm-check',
    every: () => svc.config.OPERATIONS_SENSOR_ALARM_CHECK_MS,
    failureMessage: 'operations: the sensor alarm check failed',
    // a full pass: more may be due, the next round runs at once
    round: async (r) => (await r.write((w) => raiseDueAlarms(w, TAKE))) >= TAKE,
  });

/** What maintaining the partitions runs on: a worker's round, or the service's runtime (tests). */
export type PartitionUnits = Pick<WorkerRound, 'read' | 'write'> & { readonly stopping?: boolean };

/**
 * Creates the readings' month partitions ahead of time and applies the retention: each partition
 * created or dropped in a unit of its own, then the older readings left deleted.
 */
export async function maintainReadingPartitions(r: PartitionUnits, opts: { monthsAhead: number; retentionDays: number }): Promise<{ created: string[]; dropped: string[]; deleted: number }> {
  const created: string[] = [];
  const dropped: string[] = [];
  for (const month of await r.read((w) => missingReadingPartitions(w, opts.monthsAhead))) {
    if (r.stopping) return { created, dropped, deleted: 0 };
    const name = await r.write((w) => createReadingPartition(w, month));
    if (name) created.push(name);
  }
  const expired = await r.read(async (w) => {
    const cutoff = retentionCutoff(w.now, opts.retentionDays);
    return cutoff && { cutoff, names: await expiredReadingPartitions(w, cutoff) };
  });
  if (!expired) return { created, dropped, deleted: 0 };
  for (const name of expired.names) {
    if (r.stopping) return { created, dropped, deleted: 0 };
    await r.write((w) => dropReadingPartition(w, name));
    dropped.push(name);
  }
  const deleted = await r.write((w) => deleteExpiredReadings(w, expired.cutoff));
  return { created, dropped, deleted };
}

/** Creates the readings' month partitions ahead of time and applies the retention setting. */
export const sensorReadingPartitions = (svc: ServiceRuntime<OperationsConfig>) =>
  defineWorker({
    name: 'sensor-reading-partitions',
    every: () => svc.config.OPERATIONS_SENSOR_PARTITION_CHECK_MS,
    failureMessage: 'operations: maintaining the sensor reading partitions failed',
    round: async (r) => {
      const { created, dropped, deleted } = await maintainReadingPartitions(r, {
        monthsAhead: svc.config.OPERATIONS_SENSOR_PARTITION_MONTHS_AHEAD,
        retentionDays: svc.config.OPERATIONS_SENSOR_READING_RETENTION_DAYS,
      });
      if (created.length + dropped.length + deleted > 0) svc.log.info({ created, dropped, deleted }, 'operations: sensor reading partitions maintained');
      return false;
    },
  });

export const sensorWorkers = (svc: ServiceRuntime<OperationsConfig>): WorkerSpec[] => [sensorAlarmCheck(svc), sensorReadingPartitions(svc)];
