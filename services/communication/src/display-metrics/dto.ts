import type { DisplayMetric } from './entities';

/** A display metric on the wire (its value as pushed: the column keeps the decimals sent). */
export function displayMetricDto(m: DisplayMetric) {
  return {
    locationId: m.locationId,
    name: m.name,
    value: m.value,
    unit: m.unit ?? null,
    label: m.label ?? null,
    measuredAt: new Date(m.measuredAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
  };
}
