import fs from 'node:fs';
import path from 'node:path';

/**
 * The one service layout (../shared/handbook/conventions.md): every service under services/ has the
 * same shape, so a reader who knows one knows all. Each rule below names what it keeps out.
 */
const servicesDir = path.join(__dirname, '..', 'services');
const services = fs.readdirSync(servicesDir).filter((d) => fs.existsSync(path.join(servicesDir, d, 'src', 'index.ts')));

const TOP_FILES = new Set(['index.ts', 'main.ts', 'config.ts']);
/** folders named for a layer, not an area of the service */
const LAYER_NAMES = new Set(['routes', 'actions', 'domain', 'entities', 'lib', 'utils', 'helpers', 'common', 'consumers', 'workers', 'worker', 'store', 'stores', 'dto', 'shared', 'core', 'services', 'models', 'types']);
/** a rule file named for a layer says nothing of what it decides */
const VAGUE_NAMES = /^(domain|utils?|helpers?|lib|common|misc|logic|services?)\.ts$/;
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*\.ts$/;
/** database access: the store's business alone */
const DB_ACCESS = [
  /\bsqlQuery\s*[(<]/,
  /\.execute\s*\(/,
  /\bgetKnex\s*\(/,
  /\bcreateQueryBuilder\s*\(/,
  /\bem\.(find|findOne|findOneOrFail|findAndCount|create|persist|persistAndFlush|flush|remove|nativeUpdate|nativeDelete|nativeInsert|count|upsert|upsertMany|transactional|getReference|qb|lock|refresh|insert|insertMany)\s*[(<]/,
  /\btem\.(find|findOne|findOneOrFail|create|persist|flush|remove|nativeUpdate|nativeDelete|count|upsert|execute)\s*[(<]/,
];
const IMPURE_IMPORTS = /from '(@mikro-orm\/[a-z-]+|pg|knex|express|node:http|node:fs|node:child_process)'/;

type Role = 'routes' | 'store' | 'entities' | 'dto' | 'consumers' | 'workers' | 'admin' | 'rule';
function roleOf(file: string): Role {
  const base = file.replace(/\.ts$/, '');
  if (base === 'routes' || base.endsWith('-routes')) return 'routes';
  if (base === 'store' || base.endsWith('-store')) return 'store';
  if (base === 'entities') return 'entities';
  if (base === 'dto') return 'dto';
  if (base === 'consumers') return 'consumers';
  if (base === 'workers' || base.endsWith('-worker')) return 'workers';
  if (base === 'admin') return 'admin';
  return 'rule';
}

function code(file: string): string {
  // comments do not count (a rule may cite `em.find` in words)
  return fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe.each(services)('services/%s follows the one layout', (service) => {
  const src = path.join(servicesDir, service, 'src');
  const entries = fs.readdirSync(src, { withFileTypes: true });
  const areas = entries.filter((e) => e.isDirectory() && e.name !== 'migrations').map((e) => e.name);
  const areaFiles = areas.flatMap((area) =>
    fs.readdirSync(path.join(src, area), { withFileTypes: true }).map((f) => ({ area, name: f.name, dir: f.isDirectory(), file: path.join(src, area, f.name) })),
  );

  it('src holds index.ts, main.ts, config.ts, migrations/ and one folder per area, nothing else', () => {
    const stray = entries.filter((e) => (e.isFile() ? !TOP_FILES.has(e.name) : false)).map((e) => e.name);
    expect(stray).toEqual([]);
    for (const f of TOP_FILES) expect(fs.existsSync(path.join(src, f))).toBe(true);
    expect(areas.filter((a) => LAYER_NAMES.has(a) || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(a))).toEqual([]);
    expect(areas.length).toBeGreaterThan(0);
  });

  it('migrations are Migration<YYYYMMDDhhmmss>.ts plus index.ts', () => {
    const files = fs.readdirSync(path.join(src, 'migrations'));
    expect(files.filter((f) => f !== 'index.ts' && !/^Migration\d{14}\.ts$/.test(f))).toEqual([]);
    expect(files).toContain('index.ts');
  });

  it('config.ts exports `configSchema`; index.ts only declares the service', () => {
    expect(code(path.join(src, 'config.ts'))).toMatch(/export const configSchema\b/);
    const index = code(path.join(src, 'index.ts'));
    expect(index).toMatch(/createService\(/);
    // imports, re-exports and the one declaration: no functions, classes or SQL of its own
    expect(index).not.toMatch(/^\s*(export\s+)?(async\s+)?function\b|^\s*(export\s+)?class\b/m);
    for (const p of DB_ACCESS) expect(index).not.toMatch(p);
  });

  it('area folders hold kebab-case files only, no sub-folders; rule files are named for what they decide', () => {
    expect(areaFiles.filter((f) => f.dir).map((f) => `${f.area}/${f.name}`)).toEqual([]);
    expect(areaFiles.filter((f) => !f.dir && !KEBAB.test(f.name)).map((f) => `${f.area}/${f.name}`)).toEqual([]);
    expect(areaFiles.filter((f) => VAGUE_NAMES.test(f.name)).map((f) => `${f.area}/${f.name}`)).toEqual([]);
  });

  it('entities are declared in an area\'s entities.ts only', () => {
    const elsewhere = areaFiles
      .filter((f) => !f.dir && roleOf(f.name) !== 'entities' && /\b(defineEntity|new EntitySchema)\s*[(<]/.test(code(f.file)))
      .map((f) => `${f.area}/${f.name}`);
    expect(elsewhere).toEqual([]);
  });

  it('only stores touch the database (routes, consumers, workers, dto and rules call a store)', () => {
    const leaks = areaFiles
      .filter((f) => !f.dir && roleOf(f.name) !== 'store' && roleOf(f.name) !== 'entities')
      .flatMap((f) => {
        const text = code(f.file);
        return DB_ACCESS.filter((p) => p.test(text)).map((p) => `${f.area}/${f.name}: ${p.source}`);
      });
    expect(leaks).toEqual([]);
  });

  it('rule files are pure: no ORM, pg, express, http or file system import, no store import', () => {
    const impure = areaFiles
      .filter((f) => !f.dir && roleOf(f.name) === 'rule')
      .filter((f) => {
        const text = code(f.file);
        return IMPURE_IMPORTS.test(text) || /from '\.{1,2}\/[^']*store'/.test(text);
      })
      .map((f) => `${f.area}/${f.name}`);
    expect(impure).toEqual([]);
  });

  it('the time comes from the kit clock, never `new Date()` or `Date.now()`', () => {
    const files = [...entries.filter((e) => e.isFile()).map((e) => path.join(src, e.name)), ...areaFiles.filter((f) => !f.dir).map((f) => f.file)];
    const hits = files.filter((f) => /new Date\(\s*\)|Date\.now\(\s*\)/.test(code(f))).map((f) => path.relative(src, f));
    expect(hits).toEqual([]);
  });

  it('CSV is written by the kit\'s toCsv (one quoting and formula-escaping rule), never by hand', () => {
    const files = [...entries.filter((e) => e.isFile()).map((e) => path.join(src, e.name)), ...areaFiles.filter((f) => !f.dir).map((f) => f.file)];
    // a hand-made writer doubles quotes itself, or joins cells with commas and lines with CRLF
    const hits = files.filter((f) => /replace\(\/"\/g,\s*'""'\)|\.join\(','\)[\s\S]{0,200}\\r\\n|['"]\\r\\n['"]\)/.test(code(f))).map((f) => path.relative(src, f));
    expect(hits).toEqual([]);
  });

  it('imports contracts and the kit, never another service; no empty placeholder files', () => {
    const files = areaFiles.filter((f) => !f.dir).map((f) => f.file);
    const crossing = files.filter((f) => /from '@svc\//.test(code(f))).map((f) => path.relative(src, f));
    expect(crossing).toEqual([]);
    const empty = files.filter((f) => {
      const body = code(f).replace(/^import .*$/gm, '').trim();
      return body === '' || /^(export const \w+(: [^=]+)? = \[\];\s*)+$/.test(body);
    });
    expect(empty.map((f) => path.relative(src, f))).toEqual([]);
  });
});

/**
 * One way to write a store (issue 37, docs/writing-a-service.md): every service is on the kit's unit
 * of work — it opens no transaction of its own, reads no clock but its unit's, records events with
 * `emit` only, names its schema only in index.ts, declares its workers, and builds no caller type.
 */
const OLD_IDIOMS = {
  transaction: /\.transactional\s*\(|\bwriteTransaction\s*\(|\w+InTransaction\b/,
  events: /\b(insertEvents|recordEvent)\s*\(/,
  clock: /import\s*\{[^}]*\bnow(Ms)?\b[^}]*\}\s*from\s*'@bop\/shared'|\.clock\.now\(\)/,
  worker: /\bextends\s+RoundWorker\b/,
  callerType: /\b(interface|type)\s+(WriteContext|Caller|CreateContext|EditContext|ActionContext|DayAction|ShiftCaller|SensorWriter)\b/,
  bareReach: /^\s*ctx\.reach\(\);/m,
};
/** a raw SQL statement: the kit's sqlQuery, the entity manager's execute, knex, a raw fragment in a query builder */
const RAW_SQL = /\bsqlQuery\s*[<(]|em\.execute\s*[<(]|\.getConnection\(\)\.execute\s*[<(]|\.getKnex(Query)?\s*\(|\braw\s*\(|\bsql`/;
/** the measurement a kept raw statement names in a comment at most this many lines above it */
const BENCH_SQL_CITE = /bench:sql ([a-z][\w.-]*)/;
const CITE_REACH = 12;
const benchSqlDir = path.join(__dirname, '..', 'bench', 'sql');
const benchSqlCases = new Set(
  fs
    .readdirSync(benchSqlDir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...fs.readFileSync(path.join(benchSqlDir, f), 'utf8').matchAll(/\bname:\s*'([a-z][\w.-]*)'/g)].map((m) => m[1])),
);

/** `file:line` of each raw statement without a comment naming an existing bench:sql case shortly above it */
function unmeasuredRawSql(file: string, text: string = fs.readFileSync(file, 'utf8')): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const t = line.trim();
    if (t.startsWith('//') || t.startsWith('*') || t.startsWith('import ') || !RAW_SQL.test(line.replace(/\/\/.*$/, ''))) return;
    const cite = lines
      .slice(Math.max(0, i - CITE_REACH), i + 1)
      .reverse()
      .map((l) => BENCH_SQL_CITE.exec(l)?.[1])
      .find(Boolean);
    if (!cite || !benchSqlCases.has(cite)) out.push(`${file}:${i + 1}${cite ? ` (no case ${cite} in bench/sql)` : ''}`);
  });
  return out;
}

const schemaLiteral = (schema: string) => new RegExp(`"${schema}"\\.|schema:\\s*'${schema}'|[(,]\\s*'${schema}'\\s*[,)]`);

it('each rule below catches the old idiom it keeps out', () => {
  const old: Array<[RegExp, string]> = [
    [OLD_IDIOMS.transaction, 'export const closeDayInTransaction = (em) => em.transactional((tem) => closeDay(tem));'],
    [OLD_IDIOMS.transaction, 'await writeTransaction(ctx.em, (em) => recordDeposit(em, body), conflict);'],
    [OLD_IDIOMS.events, "await insertEvents(em, 'cash', events, actorOf(w.actor), w.now);"],
    [OLD_IDIOMS.events, 'recordEvent(em, { type, aggregateType, aggregateId, locationId, object, actor });'],
    [OLD_IDIOMS.clock, "import { defineConsumer, now, type ConsumerDef } from '@bop/shared';"],
    [OLD_IDIOMS.clock, 'const w = { actor: ctx.principal, now: svc.clock.now() };'],
    [OLD_IDIOMS.worker, 'export class SwapExpiryWorker extends RoundWorker {'],
    [OLD_IDIOMS.callerType, 'export interface WriteContext {'],
    [OLD_IDIOMS.bareReach, '    ctx.reach();'],
    [schemaLiteral('cash'), 'update "cash"."sales_transactions" set …'],
    [schemaLiteral('cash'), "await writableLocations(em, 'cash', refs);"],
    [schemaLiteral('cash'), "defineEntity({ name: 'CashCount', schema: 'cash' })"],
  ];
  expect(old.filter(([rule, line]) => !rule.test(line)).map(([, line]) => line)).toEqual([]);
  // and leaves alone what is not one: the event area, a unit's instant, a reach that is used
  expect(schemaLiteral('cash').test("area: 'cash',")).toBe(false);
  expect(OLD_IDIOMS.clock.test('countedAt: w.now,')).toBe(false);
  expect(OLD_IDIOMS.bareReach.test('    const reach = ctx.reach();')).toBe(false);
  // raw SQL without a measurement named above it, and with one
  const stmt = 'const rows = await sqlQuery<Row>(w.em, `select 1`, []);';
  expect(unmeasuredRawSql('x.ts', `// raw SQL: the ORM cannot express it\n${stmt}`)).toEqual(['x.ts:2']);
  expect(unmeasuredRawSql('x.ts', `// raw SQL (bench:sql no.such-case): 3.0×\n${stmt}`)).toEqual(['x.ts:2 (no case no.such-case in bench/sql)']);
  expect(unmeasuredRawSql('x.ts', `// raw SQL (bench:sql ${[...benchSqlCases][0]}): 2.6×\n${stmt}`)).toEqual([]);
  expect(unmeasuredRawSql('x.ts', "await w.em.execute(`select pg_notify('x', '')`);")).toEqual(['x.ts:1']);
  expect(unmeasuredRawSql('x.ts', "qb.select(raw('sum(amount)::text'));")).toEqual(['x.ts:1']);
  expect(unmeasuredRawSql('x.ts', "const rows = await qb.execute('all');")).toEqual([]);
});

it('keeps raw SQL in the kit\'s replica and ingest stores only where a measurement justifies it (a comment naming its npm run bench:sql case)', () => {
  // the stores of the replicas every service holds, and the batch upsert of every ingest endpoint
  const kit = path.join(__dirname, '..', 'shared', 'src');
  const files = ['employee-replica.ts', 'org-replica.ts', 'read-through.ts', 'ingest.ts'];
  expect(files.flatMap((f) => unmeasuredRawSql(`shared/src/${f}`, fs.readFileSync(path.join(kit, f), 'utf8')))).toEqual([]);
});

describe.each(services)('services/%s writes its stores the one way', (service) => {
  const src = path.join(servicesDir, service, 'src');
  const files = fs
    .readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !path.join(e.parentPath, e.name).includes(`${path.sep}migrations${path.sep}`))
    .map((e) => path.join(e.parentPath, e.name));
  const hits = (pattern: RegExp, except: (file: string) => boolean = () => false) =>
    files.filter((f) => !except(f) && pattern.test(code(f))).map((f) => path.relative(src, f));

  it('opens no transaction of its own (the kit opens the write\'s; ctx.transaction for routes that declare { transaction: false })', () => {
    expect(hits(OLD_IDIOMS.transaction)).toEqual([]);
  });

  it('records events with the unit\'s emit only (no insertEvents, no recordEvent)', () => {
    expect(hits(OLD_IDIOMS.events)).toEqual([]);
  });

  it('reads the time from its unit (w.now), never the kit\'s global clock or the service clock', () => {
    expect(hits(OLD_IDIOMS.clock)).toEqual([]);
  });

  it('names its schema only in index.ts (w.schema elsewhere)', () => {
    const literal = schemaLiteral(service); // each service's schema is named for it (contracts' serviceTable)
    // main.ts names the service (tracing), not its schema
    expect(hits(literal, (f) => f === path.join(src, 'index.ts') || f === path.join(src, 'main.ts'))).toEqual([]);
  });

  it('keeps raw SQL only where a measurement justifies it (a comment naming its npm run bench:sql case)', () => {
    expect(files.flatMap((f) => unmeasuredRawSql(path.relative(src, f), fs.readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('declares its workers (defineWorker) and builds no caller type of its own', () => {
    expect(hits(OLD_IDIOMS.worker)).toEqual([]);
    expect(hits(OLD_IDIOMS.callerType)).toEqual([]);
    // a reach read only for its permission check: the kit checked the row's permission before the handler
    expect(hits(OLD_IDIOMS.bareReach)).toEqual([]);
  });
});
