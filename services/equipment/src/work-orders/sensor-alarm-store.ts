import { LockMode } from '@mikro-orm/core';
import type { SensorAlarmEventObject } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { WorkOrder } from './entities';
import { openWorkOrder, recordHistory } from './record-store';
import { workOrderDto } from './dto';
import { Asset } from '../assets/entities';

/**
 * A sensor's alarm on an asset (operations' `sensor.out_of_range`): out of range on an active asset
 * set to `workOrderOnSensorAlarm` opens one work order for the excursion (actor `system`; the alarm id
 * is unique among work orders, so a repeated event opens nothing more); back in range is noted in the
 * history of that work order while it is not yet closed.
 */
export async function applySensorAlarm(w: Work, alarm: SensorAlarmEventObject): Promise<void> {
  const { em } = w;
  if (!alarm.assetId) return;
  const existing = await em.findOne(WorkOrder, { sensorAlarmId: alarm.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (alarm.state === 'back_in_range') {
    if (!existing || (existing.status !== 'open' && existing.status !== 'in_progress')) return;
    const view = workOrderDto(existing);
    recordHistory(w, existing.id, 'sensor_back_in_range', view, view, `${alarm.sensorName} back in range at ${alarm.readAt} (${alarm.value}${alarm.unit ? ` ${alarm.unit}` : ''}).`);
    await em.flush();
    return;
  }
  if (existing) return;
  const asset = await em.findOne(Asset, { id: alarm.assetId });
  if (!asset || asset.status !== 'active' || !asset.workOrderOnSensorAlarm) return;
  const range = `${alarm.min ?? '−∞'} to ${alarm.max ?? '∞'}${alarm.unit ? ` ${alarm.unit}` : ''}`;
  openWorkOrder(
    w,
    {
      title: `Sensor alarm: ${alarm.sensorName} out of range`,
      description: `${alarm.sensorName} read ${alarm.value}${alarm.unit ? ` ${alarm.unit}` : ''} at ${alarm.readAt}, outside ${range}, out of range since ${alarm.outOfRangeSince}.`,
      priority: 'high',
      assetId: asset.id,
      locationId: asset.locationId,
      source: 'sensor_alarm',
      maintenancePlanId: null,
      sensorAlarm: { id: alarm.id, sensorId: alarm.sensorId, sensorName: alarm.sensorName, value: alarm.value, unit: alarm.unit, min: alarm.min, max: alarm.max, outOfRangeSince: alarm.outOfRangeSince },
      assigneeEmployeeId: null,
      vendor: null,
      dueDate: null,
      notes: null,
    },
  );
  await em.flush();
}
