import { fixedClock, useClock, type Principal } from '@bop/shared';
import { postMultipart, startTestServices, testKeys, type TestServices } from '@bop/test-support';
import { filesService } from '@svc/files';
import { operationsService } from '../src';
import { formsLocation, localPerson } from './forms-fixtures';

/** Photos and signatures are attachments of the files service, checked as the caller would see them. */
let stack: TestServices;
beforeAll(async () => {
  stack = await startTestServices([filesService, operationsService]);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => useClock(fixedClock('2026-12-01T12:00:00Z')));
afterEach(() => useClock({ now: () => new Date() }));

const ops = () => stack.services.operations;
const call = (method: string, path: string, body?: unknown, as?: Principal) => ops().call(method, path, { body, as });
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A file uploaded to the files service by `as`. */
async function uploaded(as: Principal, content: Buffer, fileName: string, contentType: string): Promise<string> {
  const { signer } = await testKeys();
  const r = await postMultipart(stack.services.files.svc.url, '/attachments', [{ fileName, contentType, content }], { 'x-internal-token': await signer.sign(as) });
  if (r.status !== 201) throw new Error(`upload: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

describe('photo and signature answers', () => {
  it('take images the caller may see; a PDF, an unknown file or another person\'s file is refused with its path', async () => {
    const loc = await formsLocation(ops());
    const form = (
      await call('POST', '/forms', {
        name: 'Delivery inspection',
        kind: 'inspection',
        sections: [
          {
            title: 'Delivery',
            questions: [
              { id: 'photos', type: 'photo', text: 'Photos of the pallet', minPhotos: 2, correctiveAction: { priority: 'medium' } },
              { id: 'sign', type: 'signature', text: 'Driver signature' },
            ],
          },
        ],
      })
    ).body;
    const me = localPerson([loc], { id: 'usr_me', userId: 'usr_me' });
    const someoneElse = localPerson([loc], { id: 'usr_other', userId: 'usr_other' });
    const photo = await uploaded(me, PNG, 'pallet.png', 'image/png');
    const signature = await uploaded(me, PNG, 'sign.png', 'image/png');
    const pdf = await uploaded(me, PDF, 'invoice.pdf', 'application/pdf');
    const theirs = await uploaded(someoneElse, PNG, 'theirs.png', 'image/png');

    const send = (photos: string[], sign: string[]) =>
      call('POST', '/form-submissions', { formId: form.id, locationId: loc, completedAt: '2026-12-01T11:00:00Z', answers: [{ questionId: 'photos', attachmentIds: photos }, { questionId: 'sign', attachmentIds: sign }] }, me);

    const refused = await send([photo, pdf, 'att_nothing', theirs], [signature]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { path: 'answers[0].attachmentIds[1]', message: `Attachment ${pdf} is application/pdf; a photo or signature is an image.` },
      { path: 'answers[0].attachmentIds[2]', message: 'No attachment att_nothing.' },
      { path: 'answers[0].attachmentIds[3]', message: `No attachment ${theirs}.` },
    ]);

    // one photo of the two asked for fails the answer, and opens its corrective action
    const short = await send([photo], [signature]);
    expect(short.status).toBe(201);
    expect(short.body.results.map((r: { outcome: string; reason: string }) => [r.outcome, r.reason])).toEqual([
      ['failed', '1 photo; at least 2 needed.'],
      ['answered', 'Signed.'],
    ]);
    expect(short.body.results[0].correctiveActionId).toMatch(/^cra_/);

    const second = await uploaded(me, PNG, 'pallet-2.png', 'image/png');
    const full = await send([photo, second], [signature]);
    expect(full.body).toMatchObject({ passed: true, failedCount: 0 });
    expect(full.body.results[0].answer.attachmentIds).toEqual([photo, second]);

    // the corrective action closes with evidence the closer may see
    const actionId = short.body.results[0].correctiveActionId;
    const bad = await call('POST', `/corrective-actions/${actionId}:close`, { resolution: 'Re-photographed', attachmentIds: [theirs] }, me);
    expect(bad.body.errors).toEqual([{ path: 'attachmentIds[0]', message: `No attachment ${theirs}.` }]);
    const closed = await call('POST', `/corrective-actions/${actionId}:close`, { resolution: 'Re-photographed', attachmentIds: [second, pdf] }, me);
    expect(closed.body).toMatchObject({ status: 'closed', resolutionAttachmentIds: [second, pdf] });
  });
});
