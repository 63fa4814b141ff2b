#!/usr/bin/env node
/**
 * Operations CLI: `npm run ops -- <command>` or `bop-ops <command>` (`--help` after any command
 * shows its own). The commands live in ./ops/ by what they work on.
 * Exit codes: 0 done, 1 something failed (said on stderr as `error: …`), 2 wrong usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, Help } from 'commander';
import { addHealthCommands } from './ops/health';
import { addDeadLetterCommands } from './ops/dead-letters';
import { addIntegrationCommands } from './ops/integrations';
import { addWebhookCommands } from './ops/webhooks';
import { addIdentityCommands } from './ops/identity';
import { addStorageCommands } from './ops/storage';
import { addBackupCommands } from './ops/backup';
import { addEmailCommands } from './ops/email';
import { addInsightsCommands } from './ops/insights';

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function program(): Command {
  const ops = new Command('ops')
    .usage('<command> [options]')
    .exitOverride()
    .showHelpAfterError()
    // usage lines start lowercase, as the CLI's messages always did
    .configureHelp({ formatHelp: (cmd, helper) => Help.prototype.formatHelp.call(helper, cmd, helper).replace(/^Usage:/, 'usage:') });
  ops
    .command('version')
    .description('version of the platform')
    .option('--json', 'as JSON')
    .action((opts: { json?: boolean }) =>
      console.log(opts.json ? JSON.stringify({ version: packageVersion(), node: process.versions.node }) : `bop ${packageVersion()} (node ${process.versions.node})`),
    );
  addHealthCommands(ops);
  addDeadLetterCommands(ops);
  addIntegrationCommands(ops);
  addWebhookCommands(ops);
  addIdentityCommands(ops);
  addEmailCommands(ops);
  addStorageCommands(ops);
  addBackupCommands(ops);
  addInsightsCommands(ops);
  return ops;
}

async function main(argv: string[]): Promise<number> {
  const ops = program();
  if (argv.length === 0) {
    ops.outputHelp();
    return 0;
  }
  try {
    await ops.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // help asked for exits 0; anything commander refused (unknown command, missing argument or option) is a usage error
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    throw err;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`error: ${(err as Error).message}`);
    process.exit(1);
  },
);
