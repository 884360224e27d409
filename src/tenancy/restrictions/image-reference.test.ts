import { MAX_IMAGE_LENGTH, imageVariables } from './image-reference';
import { policyName } from '../../../test/images/mirror';
import { REFERENCES } from '../../../test/images/references';

/**
 * The policy's image-reference steps, mirrored in TypeScript with the policy's own regular expressions,
 * against the reference table (whose every row kubelet's parser confirms in the integration suite).
 */
describe('image references as the restrictions policy reads them', () => {
  it.each(REFERENCES.map((r) => [r.ref.length > 60 ? `${r.ref.slice(0, 60)}… (${r.ref.length})` : r.ref, r.about, r] as const))('%s (%s)', (_ref, _about, r) => {
    expect(policyName(r.ref)).toBe(r.name);
  });

  it('each step reads only the images, the registries and the steps before it', () => {
    const vars = imageVariables('newImages', 'registries');
    const known = new Set(['newImages', 'registries']);
    for (const v of vars) {
      const used = [...v.expression.matchAll(/variables\.(\w+)/g)].map((m) => m[1]);
      expect(used.filter((u) => !known.has(u))).toEqual([]);
      known.add(v.name);
    }
    expect(vars.map((v) => v.name)).toEqual(expect.arrayContaining(['invalidImages', 'badImages']));
  });

  it('no regular expression reads an image before the length guard has', () => {
    const [first] = imageVariables('newImages', 'registries');
    const guard = first.expression.indexOf(`size(i) > ${MAX_IMAGE_LENGTH} ||`);
    expect(guard).toBeGreaterThan(-1);
    expect(guard).toBeLessThan(first.expression.indexOf('matches('));
  });
});
