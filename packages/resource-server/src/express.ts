import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ProblemError } from '@gatehouse/contract';
import { createResourceServer, type ResourceServer, type ResourceServerOptions } from './resource-server.js';
import type { ProblemResponse } from './problems.js';
import type { Requirement } from './requirements.js';
import type { AccessTokenClaims } from './access-tokens.js';

export interface ExpressOptions extends ResourceServerOptions {
  /** The largest request body read, in bytes (default 1 MiB); larger is 413 payload-too-large. */
  readonly bodyLimit?: number;
}

/**
 * Express middleware: mount it before the routes and INSTEAD of `express.json()` (it reads the
 * body itself, so that malformed JSON is a catalog problem too). A request the document declares is
 * answered with the catalog problem, or passed on with `req.body` the JSON as sent and
 * `res.locals.gatehouse` holding `{ token, operation }`. Requests the document does not declare pass
 * through untouched.
 */
export function gatehouseExpress(options: ExpressOptions): RequestHandler {
  const kit: ResourceServer = createResourceServer(options);
  const limit = options.bodyLimit ?? 1024 * 1024;
  const publicOrigin = options.publicOrigin?.replace(/\/+$/, '');
  return (req: Request, res: Response, next: NextFunction) => {
    const path = new URL(req.originalUrl, 'http://localhost').pathname;
    void (async () => {
      const raw = req.body === undefined ? await readBody(req, limit) : Buffer.from(JSON.stringify(req.body));
      const verdict = await kit.check({
        method: req.method,
        path,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        headers: req.headers,
        // RFC 9449 §4.3: the URL as the client addressed it (`publicOrigin` behind a proxy).
        url: `${publicOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`}${req.originalUrl}`,
        body: raw,
      });
      if (!verdict.ok) return send(res, verdict.response);
      // A new DPoP-Nonce (RFC 9449 §8.2), only when the kit requires nonces.
      if (verdict.headers !== undefined) res.set(verdict.headers);
      req.body = verdict.body;
      res.locals['gatehouse'] = { token: verdict.token, operation: verdict.operation };
      kits.set(req, { kit, path });
      next();
    })().catch((error: unknown) => {
      if (error instanceof ProblemError) send(res, kit.problem(error, path));
      else next(error);
    });
  };
}

/** The kit that checked a request, for the requirements of its route. */
const kits = new WeakMap<Request, { readonly kit: ResourceServer; readonly path: string }>();

/**
 * Route middleware, after `gatehouseExpress`: the token's user must hold one of `roles` (RFC 9068
 * §2.2.3.1 `roles`, for this API's audience), else 403 insufficient_role (401 without a token).
 */
export function requireRole(...roles: readonly string[]): RequestHandler {
  return requirement({ roles });
}

/** Route middleware, after `gatehouseExpress`: the token has one of `scopes`, else 403 insufficient_scope. */
export function requireScope(...scopes: readonly string[]): RequestHandler {
  return requirement({ scopes });
}

function requirement(required: Requirement): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const checked = kits.get(req);
    if (checked === undefined)
      return next(new Error('requireRole and requireScope run after the gatehouseExpress middleware'));
    const token = (res.locals['gatehouse'] as { token?: AccessTokenClaims } | undefined)?.token;
    const refused = checked.kit.refusal(token, required, checked.path);
    if (refused === undefined) return next();
    send(res, refused);
  };
}

function send(res: Response, problem: ProblemResponse): void {
  // end(), not send(): send() would append `; charset=utf-8` to the media type.
  res.status(problem.status).set(problem.headers).end(JSON.stringify(problem.body));
}

/** The raw body, refused with 413 past `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new ProblemError('payload_too_large', `The request body is larger than ${limit} bytes.`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 0 ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
