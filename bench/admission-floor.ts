import { admissionObjects, DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, type AdmissionObject } from '../src/tenancy/admission-policies';

/**
 * The floor of the admission scenario: what kube-apiserver charges for a validating and a mutating
 * policy bound as Paddock binds its own (same match rules, namespace selector and parameter, the
 * TenantRestriction of the request's namespace), that do next to nothing — one validation (evaluated for
 * every request: no match condition) and one match condition, each reading the parameter and the
 * object's name. A pod create in a tenant namespace pays
 * this whatever the policies say; what Paddock's policies cost above it is theirs.
 *
 * Each policy shows it is loaded by one named pod: `FLOOR_REFUSED` is refused, `FLOOR_PROBE` labelled.
 */
export const FLOOR_REFUSED = 'bench-floor-refused';
export const FLOOR_PROBE = 'bench-floor-probe';
export const FLOOR_LABEL = 'bench-floor';

const FLOOR_VALIDATIONS = [{ expression: `params.spec.tenant != '' && object.metadata.name != '${FLOOR_REFUSED}'`, message: 'refused by the floor policy', reason: 'Forbidden' }];

/** Paddock's two policies with trivial content, and their three bindings unchanged. */
export function floorObjects(): AdmissionObject[] {
  const named = (o: AdmissionObject) => o.metadata.name.startsWith(RESTRICTIONS_POLICY_NAME) || o.metadata.name.startsWith(DEFAULTS_POLICY_NAME);
  return admissionObjects().filter(named).map((o): AdmissionObject => {
    if (o.kind === 'ValidatingAdmissionPolicy') {
      // Not Paddock's match condition either: the floor's one validation is evaluated for every request.
      const { matchConditions: _paddocks, ...spec } = o.spec;
      return { ...o, spec: { ...spec, variables: [], validations: FLOOR_VALIDATIONS } };
    }
    if (o.kind === 'MutatingAdmissionPolicy') {
      return {
        ...o,
        spec: {
          ...o.spec,
          matchConditions: [{ name: 'floor-probe', expression: `params.spec.tenant != '' && object.metadata.name == '${FLOOR_PROBE}'` }],
          mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: `[JSONPatch{op: 'add', path: '/metadata/labels', value: {'${FLOOR_LABEL}': 'probe'}}]` } }],
        },
      };
    }
    return o;
  });
}
