import type { AssetStatesAnswer } from '@bop/contracts';
import { callCommand, type FieldError, type Work } from '@bop/shared';

/**
 * The asset a sensor watches, checked with equipment's internal read `POST /internal/assets:states`:
 * it must exist, be active and stand at the sensor's location. Equipment not configured in this
 * process (no SERVICE_URL_EQUIPMENT): the id is kept as sent; configured but unreachable: 503.
 */
export async function assetErrors(w: Work, assetId: string, locationId: string): Promise<FieldError[]> {
  if (!w.services.has('equipment')) return [];
  const answer = await callCommand<AssetStatesAnswer>(w.services, 'equipment', 'POST', '/internal/assets:states', { ids: [assetId] }, { what: 'check the asset this sensor watches', ok: [200], requestId: w.requestId });
  const asset = answer.data.find((a) => a.id === assetId);
  if (!asset) return [{ path: 'assetId', message: `No asset ${assetId}.` }];
  if (asset.status !== 'active') return [{ path: 'assetId', message: `Asset ${assetId} is ${asset.status}; a sensor cannot watch it.` }];
  if (asset.locationId !== locationId) return [{ path: 'assetId', message: `Asset ${assetId} stands at location ${asset.locationId}, not at the sensor's location ${locationId}.` }];
  return [];
}
