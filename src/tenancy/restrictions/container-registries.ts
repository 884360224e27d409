import { isRecord } from '../json';
import type { AddProblem } from '../problems';
import { isCreate, listText, TENANT, VALIDATE } from './cel';
import { imageVariables, REGISTRY_ENTRY } from './image-reference';
import type { Restriction } from './restriction';

/** A registry host (with an optional port) and an optional path, as image references name them. */
const REGISTRY = new RegExp(REGISTRY_ENTRY);

/** Every image a Pod makes its node pull: its containers' of each kind, and its image volumes'. */
const podImages = (o: string) =>
  `(${o}.spec.?containers.orValue([]) + ${o}.spec.?initContainers.orValue([]) + ${o}.spec.?ephemeralContainers.orValue([])).map(c, c.?image.orValue(''))` +
  ` + ${o}.spec.?volumes.orValue([]).filter(v, has(v.image)).map(v, v.image.?reference.orValue(''))`;

/**
 * Which registries a tenant's images may come from. Images are read as kubelet reads them
 * (image-reference.ts); a request is checked for the images it brings in: all of a new pod's, and on
 * an update (or a new ephemeral container) those the pod did not have.
 */
export const containerRegistries: Restriction = {
  field: 'containerRegistries',
  schema: {
    type: 'object',
    description:
      "Registries (host, or host/path prefix) the tenant's images may come from; absent means any. Images are read as kubelet reads them (nginx is docker.io/library/nginx, index.docker.io is docker.io) and an entry allows a name equal to it or continuing it at a '/'. A host has a dot or a port, or is localhost.",
    properties: { allowed: { type: 'array', maxItems: 64, 'x-kubernetes-list-type': 'set', items: { type: 'string', minLength: 1, maxLength: 253, pattern: REGISTRY_ENTRY } } },
  },
  validate: validateRegistries,
  validating: {
    rules: [VALIDATE.pods],
    variables: [
      { name: 'registries', expression: 'params.spec.?containerRegistries.?allowed.orValue([])' },
      { name: 'imagesChecked', expression: 'variables.isPod && has(params.spec.containerRegistries)' },
      { name: 'podImages', expression: `variables.imagesChecked ? ${podImages('object')} : []` },
      { name: 'oldPodImages', expression: `variables.imagesChecked && !(${isCreate}) ? ${podImages('oldObject')} : []` },
      { name: 'newImages', expression: 'variables.podImages.filter(i, !(i in variables.oldPodImages))' },
      ...imageVariables('newImages', 'registries'),
    ],
    validations: [
      {
        expression: 'size(variables.invalidImages) == 0',
        messageExpression: `'image ' + variables.invalidImages.join(', ') + ' is not a valid image reference: the node could not pull it' + ${TENANT}`,
        reason: 'Forbidden',
      },
      {
        expression: 'size(variables.badImages) == 0',
        messageExpression: `'image ' + variables.badImages.join(', ') + ' is not from an allowed registry' + ${TENANT} + '; allowed: ' + ${listText('variables.registries')}`,
        reason: 'Forbidden',
      },
    ],
  },
};

function validateRegistries(path: string, registries: unknown, add: AddProblem): void {
  if (registries === undefined) return;
  if (!isRecord(registries)) return add(path, 'FieldValueInvalid', 'must be an object');
  const allowed = registries.allowed;
  if (allowed === undefined) return;
  if (!Array.isArray(allowed)) return add(`${path}.allowed`, 'FieldValueInvalid', 'must be a list of registries');
  allowed.forEach((r: unknown, i) => {
    if (typeof r !== 'string' || !REGISTRY.test(r)) {
      add(
        `${path}.allowed[${i}]`,
        'FieldValueInvalid',
        `${JSON.stringify(r)} is not a registry host or host/path prefix (like ghcr.io/org): in lower case, a host with a dot or a port, or localhost; Docker Hub is docker.io, its official images docker.io/library`,
      );
    }
  });
}
