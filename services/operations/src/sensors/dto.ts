import type { Sensor } from '@bop/contracts';
import { fmtQuantity } from '@bop/shared';
import type { OperationsSensor } from './entities';

const fmt = (v: string | null | undefined): string | null => (v === null || v === undefined ? null : fmtQuantity(v));

/** Where the sensor stands: an alarm raised, out of range (not yet for its delay), in range, or nothing read yet. */
export function alarmStateOf(s: Pick<OperationsSensor, 'alarmId' | 'runStartedAt' | 'lastReadAt'>): Sensor['alarm'] {
  if (s.alarmId) return { state: 'alarm', outOfRangeSince: s.runStartedAt ? s.runStartedAt.toISOString() : null, alarmId: s.alarmId };
  if (s.runStartedAt) return { state: 'out_of_range', outOfRangeSince: s.runStartedAt.toISOString(), alarmId: null };
  return { state: s.lastReadAt ? 'in_range' : 'no_readings', outOfRangeSince: null, alarmId: null };
}

/** The sensor as the API returns it. */
export function sensorDto(s: OperationsSensor): Sensor {
  return {
    id: s.id,
    externalId: s.externalId ?? null,
    name: s.name,
    kind: s.kind,
    unit: s.unit,
    min: fmt(s.min),
    max: fmt(s.max),
    alarmDelayMinutes: s.alarmDelayMinutes,
    locationId: s.locationId,
    assetId: s.assetId ?? null,
    status: s.status,
    lastReading: s.lastReadAt && s.lastValue != null ? { readAt: s.lastReadAt.toISOString(), value: fmtQuantity(s.lastValue) } : null,
    alarm: alarmStateOf({ alarmId: s.alarmId ?? null, runStartedAt: s.runStartedAt ?? null, lastReadAt: s.lastReadAt ?? null }),
    archivedAt: s.archivedAt ? s.archivedAt.toISOString() : null,
    version: s.version,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
