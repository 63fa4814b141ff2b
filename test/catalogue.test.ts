import { endpoints, endpointKey, findEndpoint } from '@bop/contracts';
import { catalogueReport, formatCatalogueReport } from '../runtime/src/catalogue-report';

describe('endpoint catalogue', () => {
  it('declares every endpoint of the spec and the supplement once', () => {
    const keys = endpoints.map(endpointKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(endpoints.filter((e) => e.source === 'spec')).toHaveLength(185);
    expect(endpoints.filter((e) => e.source === 'supplement')).toHaveLength(175);
  });

  it('prints how much of it is served (a figure, not a target)', () => {
    const report = catalogueReport();
    console.log(formatCatalogueReport(report));
    for (const key of report.servedKeys) expect(findEndpoint(key)).toBeDefined();
  });
});
