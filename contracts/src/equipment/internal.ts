import { z } from '../zod';

/**
 * `POST /internal/assets:states` (equipment): the current state of assets by id, for operations'
 * sensors (the asset a sensor watches must exist, not be archived, and stand at the sensor's location).
 * Unknown ids are absent.
 */
export const AssetStatesRequest = z.strictObject({ ids: z.array(z.string().min(1).max(64)).min(1).max(1000) });
export type AssetStatesRequest = z.output<typeof AssetStatesRequest>;
export const AssetState = z.object({
  id: z.string(),
  name: z.string(),
  locationId: z.string(),
  status: z.enum(['active', 'archived']),
  workOrderOnSensorAlarm: z.boolean(),
});
export type AssetState = z.output<typeof AssetState>;
export const AssetStatesAnswer = z.object({ data: z.array(AssetState) });
export type AssetStatesAnswer = z.output<typeof AssetStatesAnswer>;
