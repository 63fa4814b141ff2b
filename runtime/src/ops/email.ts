import type { Command } from 'commander';
import { emailAdmin, identityService } from '@svc/identity';
import { exits, withDatabase, withServiceRuntime } from './context';

async function emailTest(address: string, opts: { json?: boolean }): Promise<number> {
  return withDatabase((url) =>
    withServiceRuntime(identityService, url, async (runtime) => {
      const r = await emailAdmin.sendTest(runtime, runtime.config, address);
      if (opts.json) console.log(JSON.stringify(r));
      else if (r.status === 'sent') console.log(`test message to ${address} accepted by ${r.via} (${r.id})`);
      else if (r.status === 'logged') console.log(`test message to ${address} written to ${r.via} (${r.id}); set SMTP_URL to send email`);
      if (r.status === 'failed') console.error(`error: sending to ${address} through ${r.via} failed: ${r.error}`);
      return r.status === 'failed' ? 1 : 0;
    }),
  );
}

async function emailLog(opts: { limit: string; to?: string; json?: boolean }): Promise<number> {
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    console.error('error: --limit is a whole number from 1 to 1000');
    return 2;
  }
  return withDatabase((url) =>
    withServiceRuntime(identityService, url, async (runtime) => {
      const list = await emailAdmin.log(runtime, { limit, to: opts.to });
      if (opts.json) console.log(JSON.stringify(list.map(({ body: _body, ...m }) => m), null, 2));
      else {
        for (const m of list) {
          console.log(`${m.createdAt}  ${m.status.padEnd(7)}  attempts ${m.attempts}  ${m.to}  ${m.subject}${m.error ? `\n    ${m.error}` : ''}`);
        }
        console.log(`${list.length} email(s)`);
      }
      return 0;
    }),
  );
}

/** `email test <address> | log`: outgoing email (SMTP_URL, or the email log). */
export function addEmailCommands(program: Command): void {
  const group = program.command('email').description('test <address> | log: outgoing email (through SMTP_URL, or kept in the email log)');
  group
    .command('test <address>')
    .description('sends a test message now (exit 1 with the SMTP error when it fails)')
    .option('--json', 'the result as JSON')
    .action(exits(emailTest));
  group
    .command('log')
    .description('recent emails, newest first, with their status (pending, sent, logged, failed) and error')
    .option('--limit <n>', 'how many', '20')
    .option('--to <address>', 'only to this address')
    .option('--json', 'as JSON (without the bodies)')
    .action(exits(emailLog));
}
