import { crdTable } from './crd-columns';
import { AGE_COLUMN, NAME_COLUMN } from './columns';

const now = new Date('2026-01-02T03:09:05Z');
const created = '2026-01-02T03:04:05Z';

const table = crdTable([
  { name: 'Size', type: 'integer', jsonPath: '.status.size', description: 'How many' },
  { name: 'Ratio', type: 'number', jsonPath: '.status.ratio' },
  { name: 'On', type: 'boolean', jsonPath: '.spec.on', priority: 1 },
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Since', type: 'date', jsonPath: '.status.since', format: 'date' },
]);

const obj = (spec: Record<string, unknown>, status: Record<string, unknown>) => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'oil', creationTimestamp: created }, spec, status });

describe('a custom resource Table from its printer columns', () => {
  it('has Name first, then each column with its description or kube\'s default one', () => {
    expect(table.columns).toEqual([
      NAME_COLUMN,
      { name: 'Size', type: 'integer', format: '', description: 'How many', priority: 0 },
      { name: 'Ratio', type: 'number', format: '', description: 'Custom resource definition column (in JSONPath format): .status.ratio', priority: 0 },
      { name: 'On', type: 'boolean', format: '', description: 'Custom resource definition column (in JSONPath format): .spec.on', priority: 1 },
      { name: 'Ready', type: 'string', format: '', description: 'Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status', priority: 0 },
      { name: 'Since', type: 'date', format: 'date', description: 'Custom resource definition column (in JSONPath format): .status.since', priority: 0 },
    ]);
  });

  it('types each cell by its column, the first value of the path', () => {
    const cells = table.cells(obj({ on: true }, { size: 3, ratio: 0.5, since: created, conditions: [{ type: 'Ready', status: 'True' }, { type: 'Ready', status: 'False' }] }), now);
    expect(cells).toEqual(['oil', 3, 0.5, true, 'True', '5m']);
  });

  it('writes null for a value that is absent or not of the column\'s type', () => {
    expect(table.cells(obj({}, {}), now)).toEqual(['oil', null, null, null, null, null]);
    expect(table.cells(obj({ on: 'yes' }, { size: '3', ratio: 'half', since: 7, conditions: [{ type: 'Ready', status: 5 }] }), now)).toEqual(['oil', null, null, null, '5', null]);
  });

  it('prints a map or a list in a string column as Go\'s json.Marshal does: keys sorted, HTML characters escaped', () => {
    const text = crdTable([{ name: 'Spec', type: 'string', jsonPath: '.spec' }]);
    expect(text.cells(obj({ z: [1, 'a<b'], a: { y: true, b: null } }, {}), now)).toEqual(['oil', '{"a":{"b":null,"y":true},"z":[1,"a\\u003cb"]}']);
  });

  it('truncates a fractional integer, and prints a date that is not one as <invalid>', () => {
    expect(table.cells(obj({}, { size: 2.9, since: 'yesterday' }), now)).toEqual(['oil', 2, null, null, null, '<invalid>']);
  });

  it('prints Age alone for a CRD without printer columns, as kube-apiserver does', () => {
    const plain = crdTable([]);
    expect(plain.columns).toEqual([NAME_COLUMN, { ...AGE_COLUMN, type: 'date' }]);
    expect(plain.cells(obj({}, {}), now)).toEqual(['oil', '5m']);
  });
});
