import type { Request } from 'express';
import type { Logger } from '../../../log/logger';
import type { BodyLimits } from '../../http/body';
import { negotiateOutput, parseIncludeObject, wantsPretty, type IncludeObject, type Negotiated } from '../../negotiation';
import type { ListSnapshots } from '../../serving/snapshots';
import type { ResourceAuthorization } from '../filters/authorization';
import type { RequestLimits } from '../filters/limits';

/** What every verb's handler reads: the filters it calls, and the server's shared state. */
export interface HandlerContext {
  access: ResourceAuthorization;
  limits: RequestLimits;
  body: BodyLimits;
  snapshots: ListSnapshots;
  log: Logger;
}

/** The query of a request, from its original URL. */
export function queryOf(req: Request): URLSearchParams {
  return new URL(req.originalUrl, 'https://x').searchParams;
}

/** The response's form: media type and target kind (Accept), includeObject for Tables, and pretty-printing. */
export function negotiate(req: Request, watch: boolean): { negotiated: Negotiated; includeObject: IncludeObject; pretty: boolean } {
  const negotiated = negotiateOutput(req.get('accept'), { watch });
  const query = queryOf(req);
  const includeObject = negotiated.target === 'Table' ? parseIncludeObject(query.get('includeObject') ?? undefined) : 'Metadata';
  return { negotiated, includeObject, pretty: wantsPretty(negotiated, query.get('pretty'), req.get('user-agent')) };
}
