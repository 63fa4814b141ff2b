import archiver from 'archiver';
import type { Readable } from 'node:stream';
import type { PersonalDataExportAnswer, PersonalDataset } from '@bop/contracts';
import type { AreaService } from '@bop/contracts';
import { callCommand, ownEmployeeId, toCsv, type Work } from '@bop/shared';
import { peopleDatasets } from './store';

/** The services that hold personal data besides people; each implements `POST /internal/personal-data:export`. */
const HOLDERS: AreaService[] = ['identity', 'files', 'time', 'communication', 'insights'];

/**
 * `GET /me/export`: everything stored about the caller, from people and from each service that holds
 * personal data (their internal export command; one that is not part of this deployment is left out
 * and named in README.txt), as a ZIP: per service and dataset a JSON and a CSV file.
 */
export async function exportPersonalData(w: Work, requestId?: string): Promise<{ stream: Readable; fileName: string }> {
  const { services, now: at } = w;
  const employeeId = ownEmployeeId(w.actor);
  const request = { userId: w.actor.userId ?? null, employeeId };
  const answers: PersonalDataExportAnswer[] = [{ service: 'people', datasets: await peopleDatasets(w, employeeId) }];
  const missing: string[] = [];
  for (const service of HOLDERS) {
    if (!services.has(service)) {
      missing.push(service);
      continue;
    }
    answers.push(await callCommand<PersonalDataExportAnswer>(services, service, 'POST', '/internal/personal-data:export', request, { what: 'export your personal data', ok: [200], requestId }));
  }
  const zip = archiver('zip', { zlib: { level: 9 } });
  const index: string[] = [`Personal data export for employee ${employeeId}${request.userId ? ` (user ${request.userId})` : ''}, made ${at.toISOString()}.`, '', 'Each dataset comes as JSON and as CSV:', ''];
  for (const answer of answers) {
    for (const set of answer.datasets as PersonalDataset[]) {
      zip.append(JSON.stringify(set.rows, null, 2), { name: `${answer.service}/${set.name}.json` });
      zip.append(toCsv(set.rows), { name: `${answer.service}/${set.name}.csv` });
      index.push(`${answer.service}/${set.name} (${set.rows.length} rows): ${set.description}`);
    }
  }
  if (missing.length > 0) index.push('', `Not part of this deployment, so not included: ${missing.join(', ')}.`);
  zip.append(index.join('\n') + '\n', { name: 'README.txt' });
  void zip.finalize();
  return { stream: zip, fileName: `personal-data-${at.toISOString().slice(0, 10)}.zip` };
}
