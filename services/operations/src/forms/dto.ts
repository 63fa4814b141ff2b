import type { Form } from '@bop/contracts';
import type { OperationsForm } from './entities';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A form on the wire (its current version). */
export function formDto(f: OperationsForm): Form {
  return {
    id: f.id,
    externalId: f.externalId ?? null,
    name: f.name,
    description: f.description ?? null,
    kind: f.kind,
    scored: f.scored,
    passMark: f.passMark ?? null,
    locationIds: f.locationIds,
    sections: f.sections,
    questionCount: f.questionCount,
    status: f.status,
    archivedAt: f.archivedAt ? iso(f.archivedAt) : null,
    version: f.version,
    createdAt: iso(f.createdAt),
    updatedAt: iso(f.updatedAt),
  };
}
