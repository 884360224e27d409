import { conflicting, heldBy, holding } from './ledger';

describe('the hostname ledger', () => {
  const holdings = { '*.oil.example.com': 'oil', 'api.gas.example.com': 'gas' };

  it("finds the wanted patterns that overlap another tenant's, never the tenant's own", () => {
    expect(conflicting(holdings, 'gas', ['x.oil.example.com', '*.gas.example.com', '*.example.com'])).toEqual(['*.example.com', 'x.oil.example.com']);
    expect(conflicting(holdings, 'oil', ['api.oil.example.com', '*.oil.example.com'])).toEqual([]);
    expect(conflicting(holdings, 'new', ['oil.example.com', 'web.gas.example.com'])).toEqual([]);
  });

  it('holds exactly what a tenant wants: adds, releases, and says when nothing changes', () => {
    expect(holding(holdings, 'oil', ['*.oil.example.com'])).toBeUndefined();
    expect(holding(holdings, 'oil', ['*.oil.example.com', 'oil.example.com'])).toEqual({ ...holdings, 'oil.example.com': 'oil' });
    expect(holding(holdings, 'oil', [])).toEqual({ 'api.gas.example.com': 'gas' });
    expect(holding(holdings, 'new', [])).toBeUndefined();
    expect(heldBy(holding(holdings, 'gas', ['b.gas.example.com', 'a.gas.example.com'])!, 'gas')).toEqual(['a.gas.example.com', 'b.gas.example.com']);
  });
});
