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

/** The example's type errors, checked as a module of this folder against the built client (`@bop/client`'s .d.ts). */
export function exampleTypeErrors(): string[] {
  const file = path.join(__dirname, 'readme-example.ts');
  // inside a function: the package is CommonJS, where a module may not await at its top level
  const lines = exampleSource().split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import ')).map((l) => l.replace(/^export const /, 'const '));
  const text = [...imports, 'export async function example() {', ...body, '}'].join('\n');
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => (path.resolve(name) === file ? ts.createSourceFile(name, text, version) : read(name, version, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
