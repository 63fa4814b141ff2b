import { z } from '../zod';

/**
 * Contracts between operations and equipment (internal reads and the events one consumes of the other).
 */

/**
 * `POST /internal/forms:states` (operations): the current state of forms by id, for equipment's
 * maintenance plans (a plan's checklist form must exist and not be archived). Unknown ids are absent.
 */
export const FormStatesRequest = z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(1000) });
export type FormStatesRequest = z.output<typeof FormStatesRequest>;
export const FormState = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['checklist', 'audit', 'inspection']),
  status: z.enum(['active', 'archived']),
  version: z.number().int(),
});
export type FormState = z.output<typeof FormState>;
export const FormStatesAnswer = z.object({ data: z.array(FormState) });
export type FormStatesAnswer = z.output<typeof FormStatesAnswer>;

/**
 * `data.object` of `sensor.out_of_range` (operations): sent once when a sensor has been out of range
 * for its delay (`state` = `out_of_range`) and once more when it returns (`state` = `back_in_range`).
 * Equipment consumes it: an alarm on an asset whose `workOrderOnSensorAlarm` is set opens a work order.
 */
export const SensorAlarmEventObject = z.object({
  /** the excursion's id: the same in its out_of_range and back_in_range events */
  id: z.string().min(1).max(64),
  sensorId: z.string().min(1).max(64),
  sensorName: z.string(),
  locationId: z.string().min(1).max(64),
  assetId: z.string().min(1).max(64).nullable(),
  state: z.enum(['out_of_range', 'back_in_range']),
  /** the reading that decided the state, and the sensor's range then */
  value: z.string(),
  unit: z.string().nullable(),
  min: z.string().nullable(),
  max: z.string().nullable(),
  /** the first reading of the excursion, and the reading that decided this event (UTC) */
  outOfRangeSince: z.iso.datetime({ offset: true }),
  readAt: z.iso.datetime({ offset: true }),
});
export type SensorAlarmEventObject = z.output<typeof SensorAlarmEventObject>;
