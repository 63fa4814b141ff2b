import type { Settlement } from '@bop/contracts';
import { fmtAmount } from '@bop/shared';
import type { SettlementEntity } from './entities';

/** A row of cash.settlements as read with `settlementColumns` (or built for a write). */
export interface SettlementRow {
  id: string;
  source: string;
  external_id: string;
  location_id: string;
  kind: 'card' | 'platform';
  processor: string;
  platform: string | null;
  tender_types: string[];
  gross: string;
  fees: string;
  net: string;
  paid_on: string;
  business_days: string[];
  reference: string | null;
  expected_gross: string;
  difference: string;
  match_status: 'matched' | 'mismatched';
  matched_at: Date | string;
  late_review: Settlement['lateReview'];
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The select list of a SettlementRow from cash.settlements aliased `s` (dates as YYYY-MM-DD). */
export const settlementColumns = `s."id", s."source", s."external_id", s."location_id", s."kind", s."processor", s."platform", s."tender_types",
  s."gross", s."fees", s."net", to_char(s."paid_on", 'YYYY-MM-DD') as "paid_on", s."business_days", s."reference", s."expected_gross",
  s."difference", s."match_status", s."matched_at", s."late_review", s."version", s."created_at", s."updated_at"`;

/** A settlement read through the ORM (property names) as a SettlementRow. */
export const settlementRowOf = (e: SettlementEntity): SettlementRow => ({
  id: e.id,
  source: e.source,
  external_id: e.externalId,
  location_id: e.locationId,
  kind: e.kind as SettlementRow['kind'],
  processor: e.processor,
  platform: e.platform ?? null,
  tender_types: e.tenderTypes,
  gross: e.gross,
  fees: e.fees,
  net: e.net,
  paid_on: e.paidOn,
  business_days: e.businessDays,
  reference: e.reference ?? null,
  expected_gross: e.expectedGross,
  difference: e.difference,
  match_status: e.matchStatus as SettlementRow['match_status'],
  matched_at: e.matchedAt,
  late_review: e.lateReview ?? null,
  version: e.version,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

const iso = (v: Date | string) => new Date(v).toISOString();

/** The settlement as `GET /cash/settlements` answers it (and `data.object` of `cash.settlement_mismatch`). */
export function settlementDto(r: SettlementRow): Settlement {
  return {
    id: r.id,
    source: r.source,
    externalId: r.external_id,
    locationId: r.location_id,
    kind: r.kind,
    processor: r.processor,
    platform: r.platform ?? null,
    tenderTypes: r.tender_types,
    gross: fmtAmount(r.gross),
    fees: fmtAmount(r.fees),
    net: fmtAmount(r.net),
    paidOn: r.paid_on,
    businessDays: r.business_days,
    reference: r.reference ?? null,
    expectedGross: fmtAmount(r.expected_gross),
    difference: fmtAmount(r.difference),
    matchStatus: r.match_status,
    matchedAt: iso(r.matched_at),
    lateReview: r.late_review ?? null,
    version: r.version,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The event of a payout that does not match its expected tenders. */
export const SETTLEMENT_MISMATCH = 'cash.settlement_mismatch';
