import { z } from 'zod';
import { decodeCursor, encodeCursor, toPage, formatPath, zodFieldErrors, newId, changedFields, reachFor, reachCoversLocation, ApiError, ValidationError } from '@bop/shared';
import { problemBody } from '../src/problem';
import { idPrefixes, RouteTable, isRouteMatch } from '@bop/contracts';

describe('field paths', () => {
  it('formats zod paths the way the spec writes them', () => {
    expect(formatPath(['lines', 0, 'quantity'])).toBe('lines[0].quantity');
    expect(formatPath([0, 'a'])).toBe('[0].a');
    expect(formatPath([])).toBe('');
    const schema = z.strictObject({ lines: z.array(z.object({ quantity: z.string().regex(/^-?\d+(\.\d+)?$/) })) });
    const r = schema.safeParse({ lines: [{ quantity: '1' }, { quantity: 'x' }], extra: 1 });
    expect(r.success).toBe(false);
    const paths = zodFieldErrors((r as { error: z.ZodError }).error).map((e) => e.path).sort();
    expect(paths).toEqual(['extra', 'lines[1].quantity']);
  });
});

describe('cursor pages', () => {
  it('round-trips opaque cursors and refuses forged ones', () => {
    expect(decodeCursor(encodeCursor('loc_1'))).toBe('loc_1');
    expect(decodeCursor(undefined)).toBeNull();
    expect(() => decodeCursor('not-a-cursor')).toThrow(ApiError);
  });

  it('builds the envelope from limit + 1 rows', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(toPage(rows, 2, (r) => r.id)).toEqual({ data: ['a', 'b'], nextCursor: encodeCursor('b'), hasMore: true });
    expect(toPage(rows, 3, (r) => r.id)).toEqual({ data: ['a', 'b', 'c'], nextCursor: null, hasMore: false });
  });
});

describe('ids', () => {
  it('are prefixed and sort by creation time', () => {
    const ids = Array.from({ length: 100 }, () => newId('location'));
    expect(ids[0]).toMatch(/^loc_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
  });

  it('name their type: every kind has a prefix of its own', () => {
    const kinds = new Map<string, string[]>();
    for (const [kind, prefix] of Object.entries(idPrefixes)) kinds.set(prefix, [...(kinds.get(prefix) ?? []), kind]);
    expect([...kinds].filter(([, k]) => k.length > 1)).toEqual([]);
    expect(newId('deposit')).toMatch(/^dps_/);
  });
});

describe('changedFields', () => {
  it('returns the old values of what changed, ignoring version and updatedAt', () => {
    expect(changedFields({ a: 1, b: { x: 1 }, version: 1, updatedAt: 'x' }, { a: 1, b: { x: 2 }, version: 2, updatedAt: 'y', c: 3 })).toEqual({ b: { x: 1 }, c: null });
  });
});

describe('reach', () => {
  it('unions reaches over assignments and covers locations through org units', () => {
    const person = { kind: 'user' as const, via: 'session' as const, id: 'usr_1', permissions: { 'x.read': [{ type: 'locations' as const, ids: ['loc_1'] }, { type: 'org_units' as const, ids: ['ou_1'] }] } };
    const reach = reachFor(person, 'x.read');
    expect(reach).not.toBeNull();
    expect(reachCoversLocation(reach!, 'loc_1', [])).toBe(true);
    expect(reachCoversLocation(reach!, 'loc_2', ['ou_2', 'ou_1'])).toBe(true);
    expect(reachCoversLocation(reach!, 'loc_3', ['ou_9'])).toBe(false);
    expect(reachFor(person, 'y.read')).toBeNull();
    expect(reachFor({ kind: 'integration', via: 'integration_key', id: 'int_1', scopes: [] }, 'x.read')).toEqual({ everyone: true });
  });
});

describe('problem details', () => {
  it('renders the spec shape', () => {
    const body = problemBody(new ValidationError([{ path: 'name', message: 'Required' }]), 'req_1', 'https://errors.example.com/');
    expect(body).toEqual({ type: 'https://errors.example.com/validation_error', title: 'Validation error', status: 422, code: 'validation_error', detail: expect.any(String), requestId: 'req_1', errors: [{ path: 'name', message: 'Required' }] });
  });
});

describe('route table', () => {
  const t = new RouteTable<string>();
  t.add('GET', '/shifts/{id}', 'get');
  t.add('POST', '/shifts/{id}:claim', 'claim');
  t.add('POST', '/sales/transactions:batch', 'batch');
  t.add('GET', '/sales/transactions', 'list');
  t.add('POST', '/cash/business-days/{locationId}/{date}:close', 'close');
  t.add('GET', '/shifts/external/{externalId}', 'external');

  it('matches literals, parameters and custom actions', () => {
    const claim = t.match('POST', '/shifts/shf_1:claim');
    expect(isRouteMatch(claim) && claim.value).toBe('claim');
    expect(isRouteMatch(claim) && claim.params).toEqual({ id: 'shf_1' });
    const close = t.match('POST', '/cash/business-days/loc_1/2026-11-21:close');
    expect(isRouteMatch(close) && close.params).toEqual({ locationId: 'loc_1', date: '2026-11-21' });
    const batch = t.match('POST', '/sales/transactions:batch');
    expect(isRouteMatch(batch) && batch.value).toBe('batch');
    const ext = t.match('GET', '/shifts/external/A%2FB');
    expect(isRouteMatch(ext) && ext.params).toEqual({ externalId: 'A/B' });
  });

  it('tells unknown paths from known paths with another method', () => {
    expect(t.match('GET', '/nothing')).toBeNull();
    expect(t.match('POST', '/shifts/1:unknown')).toEqual({ methodMismatch: true });
    const colon = t.match('GET', '/shifts/external/POS:12');
    expect(isRouteMatch(colon) && colon.params).toEqual({ externalId: 'POS:12' });
    expect(t.match('DELETE', '/sales/transactions')).toEqual({ methodMismatch: true });
  });
});
