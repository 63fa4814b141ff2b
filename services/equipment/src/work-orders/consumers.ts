import { SensorAlarmEventObject } from '@bop/contracts';
import { defineConsumer, formatPath, scanJson, type ConsumerDef } from '@bop/shared';
import { applySensorAlarm } from './sensor-alarm-store';

/** Operations' sensor alarms: an alarm on an asset set to it opens a work order. */
export const sensorAlarmConsumers: ConsumerDef[] = [
  defineConsumer({
    name: 'sensor-alarms',
    topics: ['operations'],
    types: ['sensor.out_of_range'],
    async handle(ctx) {
      const { event } = ctx;
      // a producer's bug (wrong shape, NUL or broken text) is parked in dead_letters, never guessed at
      const parsed = SensorAlarmEventObject.safeParse(event.data.object);
      if (!parsed.success) throw new Error(`${event.type} ${event.id}: data.object is not a sensor alarm (${parsed.error.issues.map((i) => formatPath(i.path) || '(object)').join(', ')})`);
      const badText = scanJson(parsed.data, { maxDepth: 8 }).errors;
      if (badText.length > 0) throw new Error(`${event.type} ${event.id}: data.object carries text Postgres refuses (${badText.map((e) => e.path).join(', ')})`);
      await applySensorAlarm(ctx, parsed.data);
    },
  }),
];
