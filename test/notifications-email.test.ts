/**
 * A notification by email, across services through the gateway (all-in-one runtime): people's
 * employee carries the email address, operations assigns a corrective action, communication makes the
 * notification and asks for the email (`communication.email.requested`), identity's `email-requests`
 * consumer records it and its email worker sends it to a real local SMTP receiver (smtp-server).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually, http, sql, startTestRuntime, type TestRuntime } from '@bop/test-support';

interface Received {
  to: string[];
  data: string;
}
const received: Received[] = [];
let server: SMTPServer;
let t: TestRuntime;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  t = await startTestRuntime({ STORAGE_S3_BUCKET: '', SMTP_URL: smtpUrl, SMTP_FROM: 'BOP <no-reply@example.com>', EMAIL_POLL_MS: '100' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

const api = (method: string, p: string, body?: unknown) => http(t.rt.url, method, `/api/v1${p}`, { body, headers: t.owner });

it('a corrective action assigned to an employee reaches their mailbox through identity\'s SMTP sending, once', async () => {
  const location = await api('POST', '/locations', { name: 'Harbour kitchen', timezone: 'UTC' });
  expect([location.status, location.status === 201 ? null : location.body]).toEqual([201, null]);
  const employee = await api('POST', '/employees', { legalFirstName: 'Ana', legalLastName: 'Silva', homeLocationId: location.body.id, hireDate: '2026-01-05', email: 'ana.silva@example.com' });
  expect(employee.status).toBe(201);
  // communication has people's contact details (its own consumer of employee events)
  await eventually(async () => (await sql(t.db.url, `select 1 from communication.employee_contacts where employee_id = $1 and email = 'ana.silva@example.com'`, [employee.body.id])).length === 1, 20_000);

  const action = await api('POST', '/corrective-actions', { locationId: location.body.id, title: 'Replace the cooler door seal', priority: 'high', assigneeId: employee.body.id });
  expect(action.status).toBe(201);

  const mail = await eventually(async () => received.find((m) => m.to.includes('ana.silva@example.com')), 30_000);
  expect(mail.data).toContain('Subject: Corrective action assigned: Replace the cooler door seal');
  expect(mail.data).toContain('You are assigned a high-priority corrective action.');
  // the worker marks it sent once the SMTP server has answered (just after the receiver has it)
  const row = await eventually(async () => {
    const [r] = await sql<{ status: string }>(t.db.url, `select status, subject from identity.email_log where to_address = 'ana.silva@example.com'`);
    return r?.status === 'sent' ? r : undefined;
  }, 30_000);
  expect(row).toEqual({ status: 'sent', subject: 'Corrective action assigned: Replace the cooler door seal' });

  // the notification is in the app too, for the employee
  const stored = await sql(t.db.url, `select kind, subject_id from communication.notifications where employee_id = $1`, [employee.body.id]);
  expect(stored).toEqual([{ kind: 'corrective_action_assigned', subject_id: action.body.id }]);
  expect(received.filter((m) => m.to.includes('ana.silva@example.com'))).toHaveLength(1);
}, 120_000);
