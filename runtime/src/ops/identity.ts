import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { identityAdmin } from '@svc/identity';
import { exits, withIdentity } from './context';

const listFeatures = () =>
  withIdentity(async (runtime) => {
    for (const f of await identityAdmin.listFeatures(runtime)) {
      console.log(`${f.effective ? 'on ' : 'off'}  ${f.key}${f.enabled !== f.effective ? '  (switched on, but a parent is off)' : ''}`);
    }
    return 0;
  });

const setFeature = (key: string, on: boolean) =>
  withIdentity(async (runtime) => {
    await identityAdmin.setFeature(runtime, key, on);
    console.log(`${key} ${on ? 'enabled' : 'disabled'}`);
    return 0;
  });

const createAdmin = (opts: { email: string; password?: string; name?: string }) =>
  withIdentity(async (runtime) => {
    const password = opts.password ?? randomBytes(18).toString('base64url');
    const user = await identityAdmin.createAdmin(runtime, { email: opts.email, password, name: opts.name });
    console.log(`created owner ${user.email} (${user.id})`);
    if (!opts.password) console.log(`password: ${password}`);
    return 0;
  });

const createKey = (opts: { email: string; name: string; expires?: string }) =>
  withIdentity(async (runtime) => {
    const created = await identityAdmin.createPersonalKey(runtime, { email: opts.email, name: opts.name, expiresAt: opts.expires });
    console.log(created.key);
    return 0;
  });

/** `features`, `users create-admin`, `keys create`: identity's switches, owners and personal keys. */
export function addIdentityCommands(program: Command): void {
  const features = program.command('features').description('list | enable <key> | disable <key>: feature switches');
  features.command('list', { isDefault: true }).description('every switch, on or off (as in effect)').action(exits(listFeatures));
  features.command('enable <key>').description('switches a feature on').action(exits((key: string) => setFeature(key, true)));
  features.command('disable <key>').description('switches a feature off').action(exits((key: string) => setFeature(key, false)));

  program
    .command('users')
    .description('create-admin: people who sign in')
    .command('create-admin')
    .description('creates an owner (prints a generated password when none is given)')
    .requiredOption('--email <email>', 'their email')
    .option('--password <password>', 'their password (default: generated and printed)')
    .option('--name <name>', 'their name')
    .action(exits(createAdmin));

  program
    .command('keys')
    .description('create: personal API keys')
    .command('create')
    .description('prints a personal key (pk_live_...)')
    .requiredOption('--email <email>', "the user's email")
    .requiredOption('--name <name>', 'the key name')
    .option('--expires <time>', 'expiry (ISO time)')
    .action(exits(createKey));
}
