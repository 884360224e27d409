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

  /**
   * Authorizes `verb` as {@link authorize} does, and gives the caller as the resource's view needs it: it
   * sees every row when it may list the source kind cluster-wide. Both reviews are asked at once, so a
   * caller whose answers expired (one back after a pause) waits for one round trip to kube-apiserver, not
   * two; the second answer is used only once the first allowed the request.
   */
  async authorizedViewer(resource: ServedResource, user: UserInfo, verb: string, name?: string): Promise<Viewer> {
    const seesAll = this.authorizer.canListAll(user, resource.seesAllWith);
    // A refused request never reads it: its failure (503) must not go unhandled.
    seesAll.catch(() => {});
    await this.authorize(resource, user, verb, name);
    return { name: user.name, groups: user.groups, seesAll: await seesAll };
  }
}
