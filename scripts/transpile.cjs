#!/usr/bin/env node
// JavaScript for `npm start` without type checking: every project the root tsconfig.json references
// (but the typed client, which the runtime never loads: `npm run build` generates and compiles it)
// is transpiled file by file with swc into the dist/ layout `tsc -b` writes (CommonJS, ES2022, source
// maps), skipping a file whose output is newer than its source. `npm run build` (tsc -b) stays the
// type check and the only source of .d.ts; either build's output runs the same.
// Plain CommonJS, so that it needs no build itself.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const force = process.argv.includes('--force');
const quiet = process.argv.includes('--quiet');

/**
 * swc's settings equal to tsconfig.base.json's emit: module node20 in a package without "type" is
 * CommonJS with esModuleInterop; target ES2022 defines class fields; a dynamic import() stays one.
 */
const swcOptions = {
  swcrc: false,
  configFile: false,
  sourceMaps: true,
  jsc: {
    parser: { syntax: 'typescript' },
    target: 'es2022',
    keepClassNames: true,
    externalHelpers: false,
    transform: { useDefineForClassFields: true },
  },
  module: { type: 'commonjs', ignoreDynamic: true, importInterop: 'swc' },
};
/** A change of these settings (or of swc or typescript) makes every earlier output stale. */
const stampText = JSON.stringify({ swc: require('@swc/core/package.json').version, typescript: require('typescript/package.json').version, swcOptions, order: 1 });

const IMPORTS = new Set(['ImportDeclaration', 'ExportAllDeclaration', 'TsImportEqualsDeclaration']);
const NO_CODE = new Set(['FunctionDeclaration', 'TsInterfaceDeclaration', 'TsTypeAliasDeclaration', 'TsEnumDeclaration', 'TsModuleDeclaration', 'EmptyStatement', 'ExportDefaultExpression']);
/**
 * Whether code runs between imports (an entry's `startTracing()` before the modules it instruments
 * load): swc hoists every import as ES modules do, tsc's CommonJS keeps each require where its import
 * stands, so such a file is emitted by TypeScript's own transpiler instead.
 */
function codeBeforeAnImport(swc, code) {
  let ran = false;
  for (const item of swc.parseSync(code, { syntax: 'typescript' }).body) {
    const isImport = IMPORTS.has(item.type) || (item.type === 'ExportNamedDeclaration' && item.source) || (item.type === 'ExportDeclaration' && item.declaration?.type === 'TsImportEqualsDeclaration');
    if (isImport) {
      if (ran && !item.typeOnly) return true;
      continue;
    }
    const declared = item.type === 'ExportDeclaration' ? item.declaration : item;
    if (NO_CODE.has(declared?.type) || declared?.declare) continue;
    if (item.type === 'ExportNamedDeclaration' || item.type === 'ExportDefaultDeclaration') continue;
    ran = true;
  }
  return false;
}

/** TypeScript's transpiler (no type check), as tsc -b emits a file of a CommonJS package. */
function tsTranspile(code, src, sourceFileName) {
  const ts = require('typescript');
  const out = ts.transpileModule(code, {
    fileName: src,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, sourceMap: true, inlineSources: false },
  });
  const map = JSON.parse(out.sourceMapText);
  map.sources = [sourceFileName];
  return { code: out.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, ''), map: JSON.stringify(map) };
}

/** A tsconfig.json include pattern ("src", "*.ts", "sql/*.ts") as a test of a path relative to the project. */
function includeTest(pattern) {
  const hasWildcard = /[*?]/.test(pattern);
  const p = hasWildcard ? pattern : `${pattern.replace(/\/$/, '')}/**/*`;
  const re = p
    .split('/')
    .map((seg) => (seg === '**' ? '(?:[^/]+/)*' : seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]') + '/'))
    .join('')
    .replace(/\/$/, '');
  return new RegExp(`^${re}$`);
}

/** The .ts sources of a project (as tsc picks them: include, minus .d.ts, node_modules and the outDir). */
function sourcesOf(dir, config) {
  const tests = (config.include ?? ['**/*']).map(includeTest);
  const outDir = path.resolve(dir, config.compilerOptions?.outDir ?? 'dist');
  const found = [];
  const walk = (abs) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const file = path.join(abs, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || file === outDir || entry.name.startsWith('.')) continue;
        walk(file);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const rel = path.relative(dir, file).split(path.sep).join('/');
        if (tests.some((t) => t.test(rel))) found.push(file);
      }
    }
  };
  walk(dir);
  return found;
}

/** Referenced projects no start needs. */
const NOT_STARTED = new Set(['client']);

function projects() {
  const refs = (JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8')).references ?? []).filter((r) => !NOT_STARTED.has(r.path));
  return refs.map((r) => {
    const dir = path.resolve(root, r.path);
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8'));
    const options = config.compilerOptions ?? {};
    return { dir, config, rootDir: path.resolve(dir, options.rootDir ?? '.'), outDir: path.resolve(dir, options.outDir ?? 'dist') };
  });
}

const mtime = (file) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** The JavaScript (ending in its sourceMappingURL) and source map of `src` (its text `code`) written as `out`. */
async function transpileSource(code, src, out) {
  const swc = require('@swc/core');
  const sourceFileName = path.relative(path.dirname(out), src).split(path.sep).join('/');
  const byTypeScript = codeBeforeAnImport(swc, code);
  const result = byTypeScript ? tsTranspile(code, src, sourceFileName) : await swc.transform(code, { ...swcOptions, filename: src, sourceFileName });
  const map = JSON.parse(result.map);
  map.file = path.basename(out);
  return { code: `${result.code}\n//# sourceMappingURL=${path.basename(out)}.map\n`, map: JSON.stringify(map), byTypeScript };
}

async function main() {
  const started = Date.now();
  const stampFile = path.join(root, 'node_modules', '.cache', 'bop-transpile.json');
  const stale = force || (fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8') !== stampText : true);
  const jobs = [];
  for (const p of projects()) {
    for (const src of sourcesOf(p.dir, p.config)) {
      const out = path.join(p.outDir, path.relative(p.rootDir, src)).replace(/\.ts$/, '.js');
      // an output tsc wrote is as good as ours: only a missing or older one is redone (all of them when the settings changed)
      if (!stale && mtime(out) >= mtime(src)) continue;
      jobs.push({ src, out });
    }
  }
  let next = 0;
  let byTypeScript = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { src, out } = jobs[next++];
      const code = fs.readFileSync(src, 'utf8');
      const result = await transpileSource(code, src, out);
      if (result.byTypeScript) byTypeScript++;
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(`${out}.map`, result.map);
      fs.writeFileSync(out, result.code);
      if (code.startsWith('#!')) fs.chmodSync(out, 0o755);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, stampText);
  if (!quiet || jobs.length > 0) console.error(`transpiled ${jobs.length} file(s) with swc${byTypeScript > 0 ? ` (${byTypeScript} with code between imports by TypeScript's transpiler)` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s (no type check: npm run typecheck)`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`transpile failed: ${err && err.message ? err.message : err}`);
    process.exit(1);
  });
}

module.exports = { transpileSource };
