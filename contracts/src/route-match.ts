import type { HttpMethod } from './catalogue/types';

/**
 * Matches request paths against catalogue path templates such as `/shifts/{id}:claim` or
 * `/cash/business-days/{locationId}/{date}:close`. Segments are literal, `{param}`, or either
 * followed by `:verb` (custom actions). Literal segments win over parameters.
 */
type SegmentMatcher =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; name: string; verb: string | null };

interface Node<T> {
  literal: Map<string, Node<T>>;
  params: Array<{ name: string; verb: string | null; node: Node<T> }>;
  leaf: Map<string, T>;
}

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

function parseSegment(seg: string): SegmentMatcher {
  const m = /^\{([A-Za-z0-9_]+)\}(?::([A-Za-z0-9_-]+))?$/.exec(seg);
  if (m) return { kind: 'param', name: m[1], verb: m[2] ?? null };
  return { kind: 'literal', text: seg };
}

function newNode<T>(): Node<T> {
  return { literal: new Map(), params: [], leaf: new Map() };
}

export class RouteTable<T> {
  private readonly root: Node<T> = newNode();
  private readonly paths = new Set<string>();

  add(method: HttpMethod, template: string, value: T): void {
    let node = this.root;
    for (const seg of template.split('/').filter(Boolean)) {
      const parsed = parseSegment(seg);
      if (parsed.kind === 'literal') {
        let next = node.literal.get(parsed.text);
        if (!next) node.literal.set(parsed.text, (next = newNode()));
        node = next;
      } else {
        let entry = node.params.find((p) => p.verb === parsed.verb);
        if (!entry) {
          entry = { name: parsed.name, verb: parsed.verb, node: newNode() };
          // parameters with a verb are tried before the bare parameter
          node.params.push(entry);
          node.params.sort((a, b) => (a.verb === null ? 1 : 0) - (b.verb === null ? 1 : 0));
        } else if (entry.name !== parsed.name) {
          throw new Error(`conflicting parameter names at ${template}: {${entry.name}} vs {${parsed.name}}`);
        }
        node = entry.node;
      }
    }
    if (node.leaf.has(method)) throw new Error(`duplicate route ${method} ${template}`);
    node.leaf.set(method, value);
    this.paths.add(template);
  }

  /** Finds the route; `methodMismatch` tells a known path with another method. */
  match(method: string, path: string): RouteMatch<T> | { methodMismatch: true } | null {
    const segments = path.split('/').filter(Boolean);
    const params: Record<string, string> = {};
    const node = this.walk(this.root, segments, 0, params);
    if (!node) return null;
    const value = node.leaf.get(method as HttpMethod);
    if (value === undefined) return { methodMismatch: true };
    return { value, params };
  }

  private walk(node: Node<T>, segs: string[], i: number, params: Record<string, string>): Node<T> | null {
    if (i === segs.length) return node.leaf.size > 0 ? node : null;
    const raw = segs[i];
    const lit = node.literal.get(raw);
    if (lit) {
      const found = this.walk(lit, segs, i + 1, params);
      if (found) return found;
    }
    for (const p of node.params) {
      let value = raw;
      if (p.verb !== null) {
        const suffix = `:${p.verb}`;
        if (!raw.endsWith(suffix) || raw.length === suffix.length) continue;
        value = raw.slice(0, -suffix.length);
      }
      let decoded: string;
      try {
        decoded = decodeURIComponent(value);
      } catch {
        continue;
      }
      const found = this.walk(p.node, segs, i + 1, params);
      if (found) {
        params[p.name] = decoded;
        return found;
      }
    }
    return null;
  }
}

export function isRouteMatch<T>(m: RouteMatch<T> | { methodMismatch: true } | null): m is RouteMatch<T> {
  return m !== null && !('methodMismatch' in m);
}
