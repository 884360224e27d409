import type { ServedResource } from '../registration/served-resource';
import { GROUP_VERSION } from '../group-version';
import { refPath, type Flavor } from './refs';

type Obj = Record<string, unknown>;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
/** Path and operation ids as kube-apiserver builds them: TenancyPaddockDevV1alpha1. */
const ID = GROUP_VERSION.operationId;
const TAG = GROUP_VERSION.tag;
const RESOURCES_PATH = `${GROUP_VERSION.path}/`;
export const listPath = (resource: string) => `${GROUP_VERSION.path}/${resource}`;
export const itemPath = (resource: string) => `${listPath(resource)}/{name}`;

/** Query parameters, described as kube-apiserver describes them. */
const QUERY: Record<string, [type: string, description: string]> = {
  pretty: ['string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget)."],
  allowWatchBookmarks: ['boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion.'],
  continue: ['string', 'The continue option should be set when retrieving more results from the server. Its value is the metadata.continue of the previous page; an invalid token is refused with 400, an expired one with 410 Expired.'],
  fieldSelector: ['string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'],
  labelSelector: ['string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'],
  limit: ['integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.'],
  resourceVersion: ['string', 'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'],
  resourceVersionMatch: ['string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'],
  sendInitialEvents: ['boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation.'],
  timeoutSeconds: ['integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'],
  watch: ['boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'],
  dryRun: ['string', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed'],
  fieldManager: ['string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.'],
  fieldValidation: ['string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: Ignore, Warn, Strict.'],
  gracePeriodSeconds: ['integer', 'The duration in seconds before the object should be deleted. Accepted for compatibility; namespaces are deleted by kube-apiserver.'],
  propagationPolicy: ['string', "Whether and how garbage collection will be performed. Accepted for compatibility: the namespace's own deletion removes what it contains."],
};

function param(name: string, flavor: Flavor, location: 'query' | 'path' = 'query', kind = ''): Obj {
  if (location === 'path') {
    const description = `name of the ${kind}`;
    return flavor === 'v2'
      ? { type: 'string', uniqueItems: true, description, name, in: 'path', required: true }
      : { name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } };
  }
  const [type, description] = QUERY[name]!;
  return flavor === 'v2' ? { uniqueItems: true, type, description, name, in: 'query' } : { name, in: 'query', description, schema: { type, uniqueItems: true } };
}

const MEDIA = ['application/json', 'application/yaml'];
const WATCH_MEDIA = ['application/json', 'application/yaml', 'application/json;stream=watch'];

function response(flavor: Flavor, code: string, description: string, schema: string | undefined, media = MEDIA): [string, Obj] {
  if (!schema) return [code, { description }];
  const s = { $ref: refPath(schema, flavor) };
  if (flavor === 'v2') return [code, { description, schema: s }];
  return [code, { description, content: Object.fromEntries(media.map((m) => [m, { schema: s }])) }];
}

interface Op {
  action: 'get' | 'list' | 'post' | 'delete' | 'patch';
  id: string;
  description: string;
  query: string[];
  responses: [string, Obj][];
  body?: string;
  media?: string[];
}

function operation(op: Op, flavor: Flavor, gvk: Obj): Obj {
  const o: Obj = { description: op.description };
  if (flavor === 'v2') {
    o['consumes'] = ['*/*'];
    o['produces'] = op.media ?? MEDIA;
    o['schemes'] = ['https'];
  }
  o['tags'] = [TAG];
  o['operationId'] = op.id;
  const params = op.query.map((q) => param(q, flavor));
  if (op.body && flavor === 'v2') params.unshift({ name: 'body', in: 'body', required: true, schema: { $ref: refPath(op.body, flavor) } });
  if (params.length > 0) o['parameters'] = params;
  if (op.body && flavor === 'v3') o['requestBody'] = { content: { '*/*': { schema: { $ref: refPath(op.body, flavor) } } }, required: true };
  o['responses'] = Object.fromEntries([...op.responses, ['401', { description: 'Unauthorized' }]]);
  o['x-kubernetes-action'] = op.action;
  o['x-kubernetes-group-version-kind'] = gvk;
  return o;
}

/** The group version's resource list (the APIService's availability probe). */
export function resourcesPath(flavor: Flavor): Obj {
  const resourcesOp: Obj = {
    description: 'get available resources',
    ...(flavor === 'v2' ? { consumes: ['application/json', 'application/yaml'], produces: ['application/json', 'application/yaml'], schemes: ['https'] } : {}),
    tags: [TAG],
    operationId: `get${ID}APIResources`,
    responses: Object.fromEntries([response(flavor, '200', 'OK', `${META}.APIResourceList`), ['401', { description: 'Unauthorized' }]]),
  };
  return { [RESOURCES_PATH]: { get: resourcesOp } };
}

/**
 * The paths of one resource: list/watch on the collection and get on an item, and for a writable
 * resource create and delete. Each operation carries `x-kubernetes-action` and
 * `x-kubernetes-group-version-kind`; `kubectl explain` finds the kind of a resource from the `get` of its
 * collection path.
 */
export function resourcePaths(resource: ServedResource, flavor: Flavor): Obj {
  const { names, definitions } = resource;
  const { kind } = names;
  const gvk = { group: names.group, kind, version: names.version };
  const op = (o: Op) => operation(o, flavor, gvk);
  const obj = definitions.kind;
  const status = `${META}.Status`;
  const listQuery = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
  const collection: Obj = {
    get: op({ action: 'list', id: `list${ID}${kind}`, description: `list or watch objects of kind ${kind}`, query: listQuery, responses: [response(flavor, '200', 'OK', definitions.list, WATCH_MEDIA)], media: WATCH_MEDIA }),
  };
  const item: Obj = {
    get: op({ action: 'get', id: `read${ID}${kind}`, description: `read the specified ${kind}`, query: [], responses: [response(flavor, '200', 'OK', obj)] }),
  };
  if (resource.create) {
    collection.post = op({
      action: 'post', id: `create${ID}${kind}`, description: `create a ${kind}`, query: ['dryRun', 'fieldManager', 'fieldValidation'], body: obj,
      responses: [response(flavor, '200', 'OK', obj), response(flavor, '201', 'Created', obj), response(flavor, '202', 'Accepted', obj)],
    });
  }
  if (resource.delete) {
    item.delete = op({
      action: 'delete', id: `delete${ID}${kind}`, description: `delete a ${kind}`, query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy'],
      responses: [response(flavor, '200', 'OK', status), response(flavor, '202', 'Accepted', status)],
    });
  }
  if (resource.create) {
    // Not served (405 MethodNotAllowed; discovery does not list patch). kubectl decides whether
    // `kubectl create -f` can validate fields on the server by looking for fieldValidation on the PATCH
    // operation of the kind (kubernetes/kubernetes#124760); without one it fails before sending.
    item.patch = op({
      action: 'patch', id: `patch${ID}${kind}`, description: `not served: ${kind} objects are not patched (405); present so clients can tell that this resource validates fields on the server`,
      query: ['dryRun', 'fieldManager', 'fieldValidation'], body: obj, responses: [response(flavor, '200', 'OK', obj)],
    });
  }
  collection.parameters = [param('pretty', flavor)];
  item.parameters = [param('name', flavor, 'path', kind), param('pretty', flavor)];
  return { [listPath(names.resource)]: collection, [itemPath(names.resource)]: item };
}
