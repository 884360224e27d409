/**
 * The TenantRestriction CustomResourceDefinition (schemas/tenantrestriction-crd.yaml, written by `npm run
 * gen:manifests`): the parameter kind of Paddock's admission policies. Paddock keeps one object of it,
 * `paddock-restrictions`, in every tenant namespace — a copy of what the Tenant restricts — and
 * kube-apiserver finds it per request in the request's namespace (restrictions/policies.ts). Its spec
 * is composed from the same restriction schemas as the Tenant's, so that the policies' expressions are
 * type-checked against the fields they read. Owners can read it and nobody but Paddock writes it.
 */
import { RESTRICTIONS } from '../restrictions/registry';
import type { Restriction } from '../restrictions/restriction';
import type { Schema } from './schema';
import { allowedNamesSchema } from './tenant-crd';

export const RESTRICTION_KIND = { group: 'paddock.dev', version: 'v1alpha1', kind: 'TenantRestriction', plural: 'tenantrestrictions', singular: 'tenantrestriction' } as const;

/** The CRD, as installed. */
export function restrictionCrd(restrictions: readonly Restriction[] = RESTRICTIONS): Schema {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${RESTRICTION_KIND.plural}.${RESTRICTION_KIND.group}`, labels: { 'app.kubernetes.io/name': 'paddock', 'app.kubernetes.io/part-of': 'paddock', 'app.kubernetes.io/managed-by': 'paddock' } },
    spec: {
      group: RESTRICTION_KIND.group,
      scope: 'Namespaced',
      names: { kind: RESTRICTION_KIND.kind, listKind: `${RESTRICTION_KIND.kind}List`, plural: RESTRICTION_KIND.plural, singular: RESTRICTION_KIND.singular, categories: ['paddock-admin'] },
      versions: [
        {
          name: RESTRICTION_KIND.version,
          served: true,
          storage: true,
          additionalPrinterColumns: [
            { name: 'Tenant', type: 'string', jsonPath: '.spec.tenant' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: [
                "What kube-apiserver enforces in this tenant namespace: a copy of its Tenant's restrictions, kept by Paddock",
                '(the parameter of the admission policies paddock-tenant-restrictions and paddock-tenant-defaults).',
              ].join(' '),
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  required: ['tenant'],
                  properties: {
                    tenant: { type: 'string', description: 'The Tenant whose namespace this is.' },
                    ...Object.fromEntries(restrictions.map((r) => [r.field, r.schema])),
                    allowed: { ...allowedNamesSchema(restrictions), description: "The Tenant's status.allowed: the class names its selectors resolve to." },
                    hostnameHolders: {
                      type: 'object',
                      description: 'Only on paddock-system/paddock-hostnames, the hostname ledger (its tenant is empty): which tenant holds each hostname pattern.',
                      additionalProperties: { type: 'string' },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}
