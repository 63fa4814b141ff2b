import { z } from './zod';

/**
 * `POST /internal/personal-data:export` — every service that holds personal data implements it, and
 * `GET /me/export` (people) assembles the answers into one ZIP (a JSON and a CSV file per dataset).
 * The caller is the platform (system token); the request names whose data: the user account and/or
 * the employee record it is linked to.
 */
export const PersonalDataExportRequest = z.strictObject({
  userId: z.string().min(1).max(64).nullable(),
  employeeId: z.string().min(1).max(64).nullable(),
});
export type PersonalDataExportRequest = z.output<typeof PersonalDataExportRequest>;

/** One table of what a service holds about the person: flat rows (nested values are written as JSON text in the CSV). */
export const PersonalDataset = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/, 'kebab-case, used as the file name'),
  description: z.string(),
  rows: z.array(z.record(z.string(), z.unknown())),
});
export type PersonalDataset = z.output<typeof PersonalDataset>;

export const PersonalDataExportAnswer = z.object({ service: z.string(), datasets: z.array(PersonalDataset) });
export type PersonalDataExportAnswer = z.output<typeof PersonalDataExportAnswer>;
