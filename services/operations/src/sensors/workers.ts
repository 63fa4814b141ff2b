import { RoundWorker, type ServiceRuntime, type WorkerDef } from '@bop/shared';
import type { OperationsConfig } from '../config';
import { raiseDueAlarms } from './store';
import { applyReadingRetention, ensureReadingPartitions } from './partitions-store';

/** Sensors per pass of the alarm check. */
const TAKE = 500;

/**
 * The periodic alarm check (issue 19 item 4): a sensor whose latest reading is out of range raises its
 * alarm once its delay has passed by the clock with no newer reading (a probe that went quiet in a warm
 * fridge still alarms). Readings raise alarms themselves; this covers the silence after them.
 */
export class SensorAlarmCheckWorker extends RoundWorker {
  readonly name = 'sensor-alarm-check';

  constructor(private readonly svc: ServiceRuntime<OperationsConfig>) {
    super(svc.log);
  }

  protected override failureMessage(): string {
    return 'operations: the sensor alarm check failed';
  }

  protected async round(): Promise<number> {
    const raised = await raiseDueAlarms(this.svc.orm.em.fork(), this.svc.clock.now(), TAKE);
    return raised >= TAKE ? 0 : this.svc.config.OPERATIONS_SENSOR_ALARM_CHECK_MS;
  }
}

/** Creates the readings' month partitions ahead of time and applies the retention setting. */
export class SensorReadingPartitionWorker extends RoundWorker {
  readonly name = 'sensor-reading-partitions';

  constructor(private readonly svc: ServiceRuntime<OperationsConfig>) {
    super(svc.log);
  }

  protected override failureMessage(): string {
    return 'operations: maintaining the sensor reading partitions failed';
  }

  protected async round(): Promise<number> {
    const em = this.svc.orm.em.fork();
    const now = this.svc.clock.now();
    const created = await ensureReadingPartitions(em, now, this.svc.config.OPERATIONS_SENSOR_PARTITION_MONTHS_AHEAD);
    const { dropped, deleted } = await applyReadingRetention(em, now, this.svc.config.OPERATIONS_SENSOR_READING_RETENTION_DAYS);
    if (created.length + dropped.length + deleted > 0) this.svc.log.info({ created, dropped, deleted }, 'operations: sensor reading partitions maintained');
    return this.svc.config.OPERATIONS_SENSOR_PARTITION_CHECK_MS;
  }
}

export const sensorWorkers = (svc: ServiceRuntime<OperationsConfig>): WorkerDef[] => [new SensorAlarmCheckWorker(svc), new SensorReadingPartitionWorker(svc)];
