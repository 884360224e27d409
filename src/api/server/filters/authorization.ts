import type { Authorizer, UserInfo } from '../../auth';
import type { ServedResource, Viewer } from '../../registration/served-resource';
import { forbidden } from '../../status';

/** Authorization of a request for a served resource (SubjectAccessReview), and the caller as its view needs it. */
export class ResourceAuthorization {
  constructor(readonly authorizer: Authorizer) {}

  async authorize(resource: ServedResource, user: UserInfo, verb: string, name?: string): Promise<void> {
    const { names } = resource;
    const d = await this.authorizer.authorize(user, { verb, group: names.group, version: names.version, resource: names.resource, name });
    if (!d.allowed) throw forbidden(names, name ?? '', user.name, verb, d.reason || undefined);
  }

  /** The caller as the resource's view needs it; it sees every row when it may list the source kind cluster-wide. */
  async viewer(resource: ServedResource, user: UserInfo): Promise<Viewer> {
    return { name: user.name, groups: user.groups, seesAll: await this.authorizer.canListAll(user, resource.seesAllWith) };
  }
}
