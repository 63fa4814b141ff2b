import { organizationService } from '@svc/organization';
import { peopleService } from '@svc/people';
import type { Principal } from '@bop/shared';
import { eventually, person, sql, standardLocations, startTestServices, type TestService, type TestServices } from '@bop/test-support';
import { communicationService } from '../src';

/** Location team and department channels kept in step with people's real events: hire, transfer, termination. */
let stack: TestServices;
let comm: TestService;
beforeAll(async () => {
  stack = await startTestServices([organizationService, peopleService, communicationService]);
  comm = stack.services.communication;
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const staff = (employeeId: string): Principal => person({}, { employeeId });
/** today's date at a location: people apply a transfer by the new home's local date, a termination by the home's */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

async function department(name: string, locationId?: string): Promise<string> {
  const r = await stack.services.organization.call('POST', '/departments', { body: { name, locationId } });
  if (r.status !== 201) throw new Error(`department: ${r.status} ${JSON.stringify(r.body)}`);
  await eventually(async () => (await sql(stack, `select 1 from people.departments where id = $1`, [r.body.id])).length === 1, 15_000);
  return r.body.id;
}

async function hired(homeLocationId: string, departmentId: string): Promise<string> {
  const r = await stack.services.people.call('POST', '/employees', { body: { legalFirstName: 'Ana', legalLastName: 'Silva', homeLocationId, departmentId, hireDate: '2026-01-05' } });
  if (r.status !== 201) throw new Error(`employee: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

async function channel(body: Record<string, unknown>): Promise<string> {
  const r = await comm.call('POST', '/channels', { body: { name: 'Team', ...body } });
  if (r.status !== 201) throw new Error(`channel: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

const channelsOf = async (employeeId: string) => ((await comm.call('GET', '/channels?limit=200', { as: staff(employeeId) })).body.data as Array<{ id: string }>).map((c) => c.id).sort();
const until = (employeeId: string, expected: string[]) => eventually(async () => JSON.stringify(await channelsOf(employeeId)) === JSON.stringify([...expected].sort()), 15_000);

describe('channel members kept in step with people\'s events', () => {
  let nyc: string;
  let ber: string;
  beforeAll(async () => {
    ({ 'NYC-1': nyc, 'BER-1': ber } = await standardLocations(stack, ['people', 'communication']));
  });

  it('a department channel names a department organization knows; one of a location is that location\'s channel', async () => {
    const bar = await department('Bar', nyc);
    const unknown = await comm.call('POST', '/channels', { body: { kind: 'department', name: 'X', departmentId: 'dep_nope' } });
    expect([unknown.status, unknown.body.errors]).toEqual([422, [{ path: 'departmentId', message: 'No department dep_nope.' }]]);
    const elsewhere = await comm.call('POST', '/channels', { body: { kind: 'department', name: 'X', departmentId: bar, locationId: ber } });
    expect([elsewhere.status, elsewhere.body.errors]).toEqual([422, [{ path: 'locationId', message: `Department ${bar} belongs to location ${nyc}, not ${ber}.` }]]);
    const outside = await comm.call('POST', '/channels', { body: { kind: 'department', name: 'Bar', departmentId: bar }, as: person({ 'messages.manage': [{ type: 'locations', ids: [ber] }] }) });
    expect([outside.status, outside.body.code]).toEqual([403, 'out_of_reach']);
    const barChannel = await comm.call('POST', '/channels', { body: { kind: 'department', name: 'Bar', departmentId: bar }, as: person({ 'messages.manage': [{ type: 'locations', ids: [nyc] }] }) });
    expect([barChannel.status, barChannel.body.locationId, barChannel.body.departmentId]).toEqual([201, nyc, bar]);
    const archived = await stack.services.organization.call('DELETE', `/departments/${bar}`);
    expect(archived.status).toBe(200);
    const closed = await comm.call('POST', '/channels', { body: { kind: 'department', name: 'Bar again', departmentId: bar } });
    expect([closed.status, closed.body.errors]).toEqual([422, [{ path: 'departmentId', message: `Department ${bar} is archived; it takes no new channels.` }]]);
  });

  it('a hire joins, a transfer moves, a termination leaves (group channels too)', async () => {
    const kitchen = await department('Kitchen');
    const front = await department('Front of house');
    const teamNyc = await channel({ kind: 'location_team', locationId: nyc });
    const teamBer = await channel({ kind: 'location_team', locationId: ber });
    const kitchenChannel = await channel({ kind: 'department', departmentId: kitchen });
    const frontChannel = await channel({ kind: 'department', departmentId: front });

    // hired: into the location's team and the department's channel
    const ana = await hired(nyc, kitchen);
    const ben = await hired(nyc, front);
    await until(ana, [teamNyc, kitchenChannel]);
    await until(ben, [teamNyc, frontChannel]);
    const group = await channel({ kind: 'group', memberIds: [ana, ben] });
    expect(await channelsOf(ana)).toEqual([teamNyc, kitchenChannel, group].sort());
    expect((await comm.call('POST', `/channels/${teamNyc}/messages`, { body: { text: 'Staff meal at 4.' }, as: staff(ana) })).status).toBe(201);

    // transferred to Berlin and to the front of house: out of New York's team and the kitchen, into Berlin's and the front's
    const moved = await stack.services.people.call('POST', `/employees/${ana}:transfer`, { body: { effectiveDate: todayIn('Europe/Berlin'), homeLocationId: ber, departmentId: front } });
    expect([moved.status, moved.body.homeLocationId]).toEqual([200, ber]);
    await until(ana, [teamBer, frontChannel, group]);
    expect((await comm.call('GET', `/channels/${teamNyc}/messages`, { as: staff(ana) })).status).toBe(404);
    expect((await comm.call('GET', `/channels/${teamBer}/messages`, { as: staff(ana) })).status).toBe(200);

    // terminated: out of every channel, the group too
    const ended = await stack.services.people.call('POST', `/employees/${ben}:terminate`, { body: { effectiveDate: todayIn('America/New_York'), reason: 'Moved away' } });
    expect([ended.status, ended.body.status]).toEqual([200, 'terminated']);
    await until(ben, []);
    for (const id of [teamNyc, frontChannel, group]) expect((await comm.call('POST', `/channels/${id}/messages`, { body: { text: 'Still here?' }, as: staff(ben) })).status).toBe(404);
    const counts = await sql(stack, `select id, member_count from communication.channels where id = any($1) order by id`, [[teamNyc, teamBer, kitchenChannel, frontChannel, group]]);
    expect(Object.fromEntries(counts.map((c: { id: string; member_count: number }) => [c.id, c.member_count]))).toEqual({ [teamNyc]: 0, [teamBer]: 1, [kitchenChannel]: 0, [frontChannel]: 1, [group]: 1 });
  });
});
