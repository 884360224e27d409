import type { NextFunction, Request, Response } from 'express';
import type { Authenticator, UserInfo } from '../../auth';
import { sendError } from '../../request/respond';
import { unauthorized } from '../../status';

/** A request once the authentication filter has let it through. */
export type Req = Request & { user?: UserInfo };

/** The first filter after health: who asks (401 for nobody), before anything about paths is answered. */
export function authentication(authenticator: Authenticator) {
  return (req: Req, res: Response, next: NextFunction): void => {
    void (async () => {
      try {
        const result = await authenticator.authenticate(req);
        if (!result.ok) {
          sendError(res, unauthorized());
          return;
        }
        req.user = result.user;
        next();
      } catch (err) {
        next(err);
      }
    })();
  };
}
