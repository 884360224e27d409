import { compileJsonPath } from './jsonpath';

const tenant = {
  metadata: { name: 'oil' },
  spec: { namespaceQuota: 0, owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'ops' }] },
  status: { conditions: [{ type: 'Progressing', status: 'False' }, { type: 'Ready', status: 'True' }, { type: 'Ready', status: 'False' }] },
};

describe('printer-column JSONPath', () => {
  it('follows fields, and reaches nothing through a field that is not there', () => {
    expect(compileJsonPath('.spec.namespaceQuota')(tenant)).toEqual([0]);
    expect(compileJsonPath('.status.size')(tenant)).toEqual([]);
    expect(compileJsonPath('.metadata.name.first')(tenant)).toEqual([]);
  });

  it('indexes lists from either end, and takes every element with [*]', () => {
    expect(compileJsonPath('.spec.owners[0].name')(tenant)).toEqual(['alice']);
    expect(compileJsonPath('.spec.owners[-1].kind')(tenant)).toEqual(['Group']);
    expect(compileJsonPath('.spec.owners[2].kind')(tenant)).toEqual([]);
    expect(compileJsonPath('.spec.owners[*].name')(tenant)).toEqual(['alice', 'ops']);
  });

  it('filters list elements by equality, every match in order', () => {
    expect(compileJsonPath('.status.conditions[?(@.type=="Ready")].status')(tenant)).toEqual(['True', 'False']);
    expect(compileJsonPath(".status.conditions[?(@.type=='Progressing')].status")(tenant)).toEqual(['False']);
    expect(compileJsonPath('.status.conditions[?(@.type=="Stalled")].status')(tenant)).toEqual([]);
    expect(compileJsonPath('.status.conditions[?(@.type=="Ready")].status')({ metadata: {} })).toEqual([]);
  });

  it('refuses a path outside the subset when compiled', () => {
    expect(() => compileJsonPath('.spec..owners')).toThrow('unsupported JSONPath');
    expect(() => compileJsonPath('.spec.owners[?(@.name=~/a/)]')).toThrow('unsupported JSONPath');
  });
});
