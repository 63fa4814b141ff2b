import { OutOfReach, type ReachSet } from '@bop/shared';
import { ancestorsOf, subtreeOf, unitChainOfLocation, wouldCreateCycle } from '../src/org-units/org-tree';
import { assertLocationInReach, assertUnitInReach, locationReachFilter } from '../src/org-units/reach';

// company → east → (boston, nyc); company → west
const parents = new Map<string, string | null>([
  ['company', null],
  ['east', 'company'],
  ['west', 'company'],
  ['boston', 'east'],
  ['nyc', 'east'],
]);

const reachOf = (orgUnitIds: string[], locationIds: string[] = []): ReachSet => ({
  everyone: false,
  orgUnitIds: new Set(orgUnitIds),
  locationIds: new Set(locationIds),
  employeeSetIds: new Set(),
});

describe('org tree rules', () => {
  it('lists the ancestors from the root down to the parent', () => {
    expect(ancestorsOf(parents, 'boston')).toEqual(['company', 'east']);
    expect(ancestorsOf(parents, 'company')).toEqual([]);
  });

  it('stops at a cycle instead of looping', () => {
    const looped = new Map<string, string | null>([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(ancestorsOf(looped, 'a')).toEqual(['b']);
  });

  it('takes a unit with every unit below it', () => {
    expect([...subtreeOf(parents, ['east'])].sort()).toEqual(['boston', 'east', 'nyc']);
    expect([...subtreeOf(parents, ['west', 'nyc'])].sort()).toEqual(['nyc', 'west']);
  });

  it('refuses a move under the unit itself or one of its descendants', () => {
    expect(wouldCreateCycle(parents, 'east', 'east')).toBe(true);
    expect(wouldCreateCycle(parents, 'east', 'boston')).toBe(true);
    expect(wouldCreateCycle(parents, 'boston', 'west')).toBe(false);
    expect(wouldCreateCycle(parents, 'boston', null)).toBe(false);
  });

  it('gives a location its units nearest first', () => {
    expect(unitChainOfLocation(parents, 'boston')).toEqual(['boston', 'east', 'company']);
    expect(unitChainOfLocation(parents, null)).toEqual([]);
  });
});

describe('reach over the org tree', () => {
  it('filters locations by their own ids and the units below the reach', () => {
    expect(locationReachFilter({ everyone: true }, parents)).toBeNull();
    const filter = locationReachFilter(reachOf(['east'], ['loc_1']), parents);
    expect(filter?.ids).toEqual(['loc_1']);
    expect([...(filter?.orgUnitIds ?? [])].sort()).toEqual(['boston', 'east', 'nyc']);
  });

  it('reaches a location by id or through any unit above it', () => {
    expect(() => assertLocationInReach(reachOf([], ['loc_1']), parents, { id: 'loc_1', orgUnitId: null })).not.toThrow();
    expect(() => assertLocationInReach(reachOf(['east']), parents, { id: 'loc_2', orgUnitId: 'boston' })).not.toThrow();
    expect(() => assertLocationInReach(reachOf(['west']), parents, { id: 'loc_2', orgUnitId: 'boston' })).toThrow(OutOfReach);
  });

  it('reaches a unit at or under the reach; company-wide records need Everyone', () => {
    expect(() => assertUnitInReach(reachOf(['east']), parents, 'nyc')).not.toThrow();
    expect(() => assertUnitInReach(reachOf(['east']), parents, 'west')).toThrow(OutOfReach);
    expect(() => assertUnitInReach(reachOf(['east']), parents, null)).toThrow(OutOfReach);
    expect(() => assertUnitInReach({ everyone: true }, parents, null)).not.toThrow();
  });
});
