import type { Audit, AuditListQuery } from '@bop/contracts';
import type { z } from 'zod';
import { mapPage, NotFound, type EntityManager, type ListPage, type ReachSet } from '@bop/shared';
import { pageOfSubmissions, readSubmission } from '../submissions/store';
import { auditDto } from './dto';

/** `GET /audits`: the submissions of audit forms (oldest first), within the reach of `audits.read`. */
export async function listAudits(em: EntityManager, q: z.output<typeof AuditListQuery>, reach: ReachSet): Promise<ListPage<Audit>> {
  const { limit, cursor, ...filters } = q;
  return mapPage(await pageOfSubmissions(em, { ...filters, kind: 'audit' }, { limit, cursor }, reach), auditDto);
}

/** `GET /audits/{id}`: a submission of an audit form; any other id is 404. */
export async function readAudit(em: EntityManager, id: string, reach: ReachSet): Promise<Audit> {
  let s;
  try {
    s = await readSubmission(em, id, reach);
  } catch (err) {
    if (err instanceof NotFound) throw new NotFound('audit', id);
    throw err;
  }
  if (s.formKind !== 'audit') throw new NotFound('audit', id);
  return auditDto(s);
}
