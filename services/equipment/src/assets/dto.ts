import { fmtQuantity } from '@bop/shared';
import type { Asset, AssetMove, MeterReading } from './entities';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
type ActorShape = { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null };

/** An asset on the wire (lists, and the internal reads). */
export function assetDto(a: Asset) {
  return {
    id: a.id,
    name: a.name,
    category: a.category ?? null,
    make: a.make ?? null,
    model: a.model ?? null,
    serialNumber: a.serialNumber ?? null,
    locationId: a.locationId,
    warrantyEndDate: a.warrantyEndDate ?? null,
    status: a.status,
    workOrderOnSensorAlarm: a.workOrderOnSensorAlarm,
    notes: a.notes ?? null,
    version: a.version,
    createdAt: iso(a.createdAt)!,
    updatedAt: iso(a.updatedAt)!,
    archivedAt: iso(a.archivedAt),
  };
}
export type AssetDto = ReturnType<typeof assetDto>;

export function moveDto(m: AssetMove) {
  return { id: m.id, fromLocationId: m.fromLocationId, toLocationId: m.toLocationId, movedAt: iso(m.movedAt)!, movedBy: m.movedBy as ActorShape };
}

export function readingDto(r: MeterReading) {
  return { id: r.id, assetId: r.assetId, meter: r.meter, value: fmtQuantity(r.value), readAt: iso(r.readAt)!, reset: r.reset, recordedAt: iso(r.recordedAt)!, recordedBy: r.recordedBy as ActorShape };
}
