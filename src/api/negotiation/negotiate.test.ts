import { StatusError } from '../status';
import { checkTargetFits, negotiateInput, negotiateOutput, parseAccept, parseIncludeObject, wantsPretty, watchEventTarget } from './index';

const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const METADATA_LIST =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA_WATCH =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('parseAccept', () => {
  it('orders clauses by q, then concrete before wildcard, else as sent', () => {
    const clauses = parseAccept('text/*;q=0.5, */*;q=0.1, application/yaml, application/json');
    expect(clauses.map((c) => `${c.type}/${c.subType}`)).toEqual(['application/yaml', 'application/json', 'text/*', '*/*']);
  });

  it('keeps parameters and reads q as a number', () => {
    expect(parseAccept('application/json;as=Table;g=meta.k8s.io;v=v1;q=0.9')).toEqual([
      { type: 'application', subType: 'json', q: 0.9, params: { as: 'Table', g: 'meta.k8s.io', v: 'v1' } },
    ]);
  });

  it('drops malformed clauses and parameters', () => {
    expect(parseAccept('application, a/b/c, application/json;flag;x=1=2;q=abc')).toEqual([{ type: 'application', subType: 'json', q: 0, params: {} }]);
    expect(parseAccept('*')).toEqual([{ type: '*', subType: '*', q: 1, params: {} }]);
  });

  it('sorts a concrete type before */* even at a lower q, as goautoneg does', () => {
    expect(parseAccept('*/*, application/yaml;q=0.5').map((c) => c.subType)).toEqual(['yaml', '*']);
  });
});

describe('negotiateOutput', () => {
  it('answers JSON with the object itself when there is no Accept header', () => {
    expect(negotiateOutput(undefined)).toEqual({ mediaType: 'application/json', contentType: 'application/json', target: 'Object', pretty: false });
    expect(negotiateOutput('')).toMatchObject({ mediaType: 'application/json', target: 'Object' });
  });

  it('answers JSON for */* and application/*', () => {
    expect(negotiateOutput('*/*')).toMatchObject({ mediaType: 'application/json', target: 'Object' });
    expect(negotiateOutput('application/*')).toMatchObject({ mediaType: 'application/json', target: 'Object' });
  });

  it('answers YAML when asked for it', () => {
    expect(negotiateOutput('application/yaml')).toMatchObject({ mediaType: 'application/yaml', contentType: 'application/yaml', target: 'Object' });
  });

  it('gives kubectl get a meta.k8s.io/v1 Table', () => {
    expect(negotiateOutput(KUBECTL_GET)).toEqual({
      mediaType: 'application/json',
      contentType: 'application/json',
      target: 'Table',
      groupVersion: 'meta.k8s.io/v1',
      pretty: false,
    });
  });

  it('falls back to the v1beta1 Table an older kubectl asks for first', () => {
    expect(negotiateOutput('application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json')).toMatchObject({
      target: 'Table',
      groupVersion: 'meta.k8s.io/v1beta1',
    });
  });

  it('serves a Table as YAML too', () => {
    expect(negotiateOutput('application/yaml;as=Table;v=v1;g=meta.k8s.io')).toMatchObject({ mediaType: 'application/yaml', target: 'Table' });
  });

  it('skips protobuf and gives the metadata client a PartialObjectMetadataList', () => {
    expect(negotiateOutput(METADATA_LIST)).toMatchObject({
      mediaType: 'application/json',
      target: 'PartialObjectMetadataList',
      groupVersion: 'meta.k8s.io/v1',
    });
    expect(negotiateOutput(METADATA_WATCH, { watch: true })).toMatchObject({ target: 'PartialObjectMetadata', contentType: 'application/json' });
  });

  it('skips clauses with transforms it does not know', () => {
    expect(negotiateOutput('application/json;as=Table;g=meta.k8s.io;v=v2, application/json;as=Foo;g=meta.k8s.io;v=v1, application/yaml')).toMatchObject({
      mediaType: 'application/yaml',
      target: 'Object',
    });
    expect(negotiateOutput('application/json;as=Table, application/yaml')).toMatchObject({ mediaType: 'application/yaml', target: 'Object' });
    expect(negotiateOutput('application/json;v=v1, application/yaml')).toMatchObject({ mediaType: 'application/yaml' });
  });

  it('honours q-values', () => {
    expect(negotiateOutput('application/json;q=0.5, application/yaml;q=0.9')).toMatchObject({ mediaType: 'application/yaml' });
  });

  it('reads pretty=1 and ignores unknown parameters', () => {
    expect(negotiateOutput('application/json;pretty=1;charset=utf-8')).toMatchObject({ pretty: true, target: 'Object' });
  });

  it('answers 406 listing what it serves when nothing is acceptable', () => {
    const err = statusOf(() => negotiateOutput('application/vnd.kubernetes.protobuf'));
    expect(err.status).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml',
    });
    expect(statusOf(() => negotiateOutput('text/html')).code).toBe(406);
  });

  it('refuses to stream YAML: 406 listing the stream media types', () => {
    const err = statusOf(() => negotiateOutput('application/yaml, application/json', { watch: true }));
    expect(err.status.message).toBe('only the following media types are accepted: application/json;stream=watch');
  });

  it('streams JSON, also a Table for kubectl get -w', () => {
    expect(negotiateOutput(KUBECTL_GET, { watch: true })).toMatchObject({ contentType: 'application/json', target: 'Table' });
    expect(negotiateOutput('application/json;stream=watch', { watch: true })).toMatchObject({ mediaType: 'application/json' });
  });

  it('skips stream=watch on YAML and stream values other than watch', () => {
    expect(negotiateOutput('application/yaml;stream=watch, application/json')).toMatchObject({ mediaType: 'application/json' });
    expect(statusOf(() => negotiateOutput('application/json;stream=other')).code).toBe(406);
  });
});

describe('checkTargetFits', () => {
  it('refuses PartialObjectMetadata for a list and PartialObjectMetadataList for one object', () => {
    expect(statusOf(() => checkTargetFits({ target: 'PartialObjectMetadata' }, 'list')).status).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message: 'you requested PartialObjectMetadata, but the requested object is a list (*tenancy.TenantNamespaceList)',
    });
    expect(statusOf(() => checkTargetFits({ target: 'PartialObjectMetadataList' }, 'object')).status.message).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*tenancy.TenantNamespace)',
    );
  });

  it('accepts matching targets and Tables of either', () => {
    expect(() => checkTargetFits({ target: 'PartialObjectMetadataList' }, 'list')).not.toThrow();
    expect(() => checkTargetFits({ target: 'PartialObjectMetadata' }, 'object')).not.toThrow();
    expect(() => checkTargetFits({ target: 'Table' }, 'object')).not.toThrow();
    expect(() => checkTargetFits({ target: 'Object' }, 'list')).not.toThrow();
  });

  it('sends whole objects in a watch that asked for PartialObjectMetadataList, as kube-apiserver does', () => {
    expect(watchEventTarget({ target: 'PartialObjectMetadataList' })).toBe('Object');
    expect(watchEventTarget({ target: 'PartialObjectMetadata' })).toBe('PartialObjectMetadata');
  });
});

describe('parseIncludeObject', () => {
  it('defaults to Metadata', () => {
    expect(parseIncludeObject(undefined)).toBe('Metadata');
    expect(parseIncludeObject(null)).toBe('Metadata');
    expect(parseIncludeObject('')).toBe('Metadata');
  });

  it('reads None, Metadata and Object', () => {
    expect(parseIncludeObject('None')).toBe('None');
    expect(parseIncludeObject('Metadata')).toBe('Metadata');
    expect(parseIncludeObject('Object')).toBe('Object');
  });

  it('answers any other value with kube-apiserver’s 400', () => {
    const err = statusOf(() => parseIncludeObject('object'));
    expect(err.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'Unable to convert to Table as requested: includeObject: Invalid value: "object": must be \'Metadata\', \'Object\', \'None\', or empty',
    });
  });
});

describe('wantsPretty', () => {
  it('follows the pretty parameter, then the clause, then human user agents', () => {
    expect(wantsPretty({ pretty: false }, 'true', undefined)).toBe(true);
    expect(wantsPretty({ pretty: false }, 'false', 'curl/8.0')).toBe(false);
    expect(wantsPretty({ pretty: true }, undefined, undefined)).toBe(true);
    expect(wantsPretty({ pretty: false }, undefined, 'curl/8.0')).toBe(true);
    expect(wantsPretty({ pretty: false }, undefined, 'kubectl/v1.36.3')).toBe(false);
  });
});

describe('negotiateInput', () => {
  it('reads JSON by default and YAML when declared', () => {
    expect(negotiateInput(undefined)).toBe('application/json');
    expect(negotiateInput('application/json; charset=utf-8')).toBe('application/json');
    expect(negotiateInput('Application/YAML')).toBe('application/yaml');
  });

  it('answers other bodies with 415', () => {
    expect(statusOf(() => negotiateInput('application/vnd.kubernetes.protobuf')).status).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    });
  });
});
