/**
 * `npm start`'s build (scripts/transpile.cjs): each file as tsc -b would emit it, in CommonJS, with a
 * source map beside it; a file running code between its imports keeps tsc's order of evaluation.
 */
import path from 'node:path';

const { transpileSource } = require('../scripts/transpile.cjs') as {
  transpileSource(code: string, src: string, out: string): Promise<{ code: string; map: string; byTypeScript: boolean }>;
};

const src = path.join('/repo/runtime/src', 'entry.ts');
const out = path.join('/repo/runtime/dist', 'entry.js');

/** Runs CommonJS output with a `require` that records what is loaded, in order. */
function run(code: string, seen: string[]): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  const fakeRequire = (name: string) => {
    seen.push(`require ${name}`);
    return { start: () => seen.push('start()'), helper: () => 'helped', default: undefined };
  };
  new Function('exports', 'require', 'module', code)(exports, fakeRequire, { exports });
  return exports;
}

describe('transpile', () => {
  it('keeps the order of code between imports, as tsc does (tracing starts before what it instruments loads)', async () => {
    const code = "import { start } from './tracing';\nstart();\nimport { helper } from './server';\nexport const ready = helper();\n";
    const result = await transpileSource(code, src, out);
    expect(result.byTypeScript).toBe(true);
    const seen: string[] = [];
    const exports = run(result.code, seen);
    expect(seen).toEqual(['require ./tracing', 'start()', 'require ./server']);
    expect(exports.ready).toBe('helped');
  });

  it('emits a module with swc: no export for a type, class fields defined, the source map beside it', async () => {
    const code = "import { helper } from './server';\nexport type Shape = { a: number };\nexport interface Named { name: string }\nexport class Box { size = 2; constructor(readonly name: string) {} }\nexport const value = helper();\n";
    const result = await transpileSource(code, src, out);
    expect(result.byTypeScript).toBe(false);
    const seen: string[] = [];
    const exports = run(result.code, seen);
    expect(Object.keys(exports).sort()).toEqual(['Box', 'value']);
    const box = new (exports.Box as new (name: string) => { size: number; name: string })('b');
    expect(box).toEqual({ size: 2, name: 'b' });
    // tsc's order too: the parameter property is declared first
    expect(Object.keys(box)).toEqual(['name', 'size']);
    expect(result.code.trimEnd().endsWith('//# sourceMappingURL=entry.js.map')).toBe(true);
    expect(JSON.parse(result.map)).toMatchObject({ file: 'entry.js', sources: ['../src/entry.ts'] });
  });

  it('maps the TypeScript-emitted file to its source as well', async () => {
    const result = await transpileSource("import './a';\nconsole.log(1);\nimport './b';\n", src, out);
    expect(result.byTypeScript).toBe(true);
    expect(JSON.parse(result.map)).toMatchObject({ file: 'entry.js', sources: ['../src/entry.ts'] });
    expect(result.code.match(/sourceMappingURL/g)).toHaveLength(1);
  });
});
