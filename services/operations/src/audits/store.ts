import type { Audit, AuditListQuery } from '@bop/contracts';
import type { z } from 'zod';
import { mapPage, NotFound, type ListPage, type Work } from '@bop/shared';
import { pageOfSubmissions, readSubmission } from '../submissions/store';
import { auditDto } from './dto';

/** `GET /audits`: the submissions of audit forms (oldest first), within the reach of `audits.read`. */
export async function listAudits(w: Work, q: z.output<typeof AuditListQuery>): Promise<ListPage<Audit>> {
  const { limit, cursor, ...filters } = q;
  return mapPage(await pageOfSubmissions(w, { ...filters, kind: 'audit' }, { limit, cursor }), auditDto);
}

/** `GET /audits/{id}`: a submission of an audit form; any other id is 404. */
export async function readAudit(w: Work, id: string): Promise<Audit> {
  let s;
  try {
    s = await readSubmission(w, id);
  } catch (err) {
    if (err instanceof NotFound) throw new NotFound('audit', id);
    throw err;
  }
  if (s.formKind !== 'audit') throw new NotFound('audit', id);
  return auditDto(s);
}
