/** The README's example (its first `ts` block), run as written against a runtime: its output lines and its exports. */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as client from '@bop/client';

export const README = path.join(__dirname, '..', 'README.md');

export function exampleSource(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(fs.readFileSync(README, 'utf8'));
  if (!block) throw new Error('client/README.md has no ts example');
  return block[1];
}

export async function readmeExample(opts: { baseUrl: string; token: string; webhookSecret: string }): Promise<{ output: string[]; genuine: (headers: any, raw: string) => boolean }> {
  const source = exampleSource().replace('http://127.0.0.1:8080/api/v1', opts.baseUrl);
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const output: string[] = [];
  const exports: Record<string, any> = {};
  const env = { BOP_TOKEN: opts.token, WEBHOOK_SECRET: opts.webhookSecret };
  const requireFn = (name: string) => {
    if (name !== '@bop/client') throw new Error(`the example requires ${name}`);
    return client;
  };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  await new AsyncFunction('require', 'exports', 'process', 'console', js)(requireFn, exports, { env }, { log: (...a: unknown[]) => output.push(a.join(' ')) });
  return { output, genuine: exports.genuine };
}
