/**
 * The documents a newcomer reads stay short and connected (issue 37, item 5): the README is at most
 * 300 lines, every relative link of the README, docs/*.md and bench/README.md reaches a file (and,
 * with `#`, a heading of it), and the distributed-mode page names every service with its port and
 * the services it calls. The examples' bodies are checked in test/readme-examples.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { codeBlocks, documentFiles, headingAnchors, links, readDocument, ROOT } from './markdown';
import { existingServices, expectedPort, servicesCalledBy, type AppName } from './deploy-files';

const README_MAX_LINES = 300;

describe('README.md', () => {
  it(`is at most ${README_MAX_LINES} lines`, () => {
    const lines = readDocument('README.md').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('keeps the quick start commands that .ci/run runs (npm install, npm start, npm test) in sh blocks', () => {
    const commands = codeBlocks(readDocument('README.md'))
      .filter((b) => b.lang === 'sh')
      .flatMap((b) => b.text.split('\n').map((l) => l.trim()));
    expect(commands).toEqual(expect.arrayContaining(['npm install && npm start', 'npm test']));
  });

  it('links every page under docs/ and bench/README.md', () => {
    const targets = new Set(links(readDocument('README.md')).map((l) => l.target.split('#')[0]));
    const pages = documentFiles().filter((f) => f !== 'README.md');
    expect(pages.filter((p) => !targets.has(p))).toEqual([]);
  });
});

describe.each(documentFiles())('%s', (file) => {
  it('every relative link points to an existing file, and every #anchor to a heading there', () => {
    const broken: string[] = [];
    for (const link of links(readDocument(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // http:, https:, mailto:
      const [target, anchor] = link.target.split('#', 2) as [string, string | undefined];
      const resolved = target === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(target));
      const where = `${file}:${link.line} (${link.target})`;
      if (!fs.existsSync(resolved)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${where}: no heading with that anchor`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/distributed.md', () => {
  const page = readDocument('docs/distributed.md');
  const services = existingServices();

  it('its service table lists every service with its port and the services it calls', () => {
    const rows = new Map<string, { port: number; calls: string[] }>();
    for (const m of page.matchAll(/^\| ([a-z]+) \| (\d+) \| ([^|]*) \|$/gm)) {
      rows.set(m[1], { port: Number(m[2]), calls: m[3].trim() === '—' ? [] : m[3].split(',').map((s) => s.trim()) });
    }
    expect([...rows.keys()].sort()).toEqual([...services].sort());
    for (const name of services) expect({ name, ...rows.get(name) }).toEqual({ name, port: expectedPort(name), calls: servicesCalledBy(name) });
  });

  it('"Without Docker" starts every service and the gateway, each on its port with the SERVICE_URL_<NAME> it needs', () => {
    const block = codeBlocks(page).find((b) => b.text.includes('node gateway/dist/main.js'));
    expect(block).toBeDefined();
    const started = new Map<AppName, { port: number; urls: Record<string, number> }>();
    for (const line of block!.text.replace(/\\\n/g, ' ').split('\n')) {
      const entry = /node (services\/([a-z]+)|gateway)\/dist\/main\.js/.exec(line);
      if (!entry) continue;
      const name = (entry[2] ?? 'gateway') as AppName;
      const urls = Object.fromEntries([...line.matchAll(/SERVICE_URL_([A-Z]+)=\S*:(\d+)\b/g)].map((m) => [m[1].toLowerCase(), Number(m[2])]));
      started.set(name, { port: Number(/(?:^|\s)PORT=(\d+)/.exec(line)?.[1]), urls });
    }
    expect([...started.keys()].sort()).toEqual([...services, 'gateway'].sort());
    for (const [name, { port, urls }] of started) {
      const needs = name === 'gateway' ? services : servicesCalledBy(name);
      expect({ name, port, urls }).toEqual({ name, port: expectedPort(name), urls: Object.fromEntries(needs.map((s) => [s, expectedPort(s)])) });
    }
  });
});
