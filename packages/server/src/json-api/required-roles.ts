/**
 * The roles an operation of a JSON API needs, as its OpenAPI document declares them
 * (`x-required-roles` on the operation: any one of the names suffices), and the one check of a
 * caller's roles against them, which the admin API (/admin/v1) and the REST API (/v2) both make.
 * RFC 9068 §2.2.3.1 names the `roles` a token's holder has; the refusal is the catalog's
 * `insufficient_role` (403), after the bearer token and its scope were accepted.
 */
import { OpenApiDocumentError, ProblemError } from '@gatehouse/contract';

/** The OpenAPI extension naming, on each operation, the roles (any one suffices) that may call it. */
export const REQUIRED_ROLES = 'x-required-roles';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The roles `operation` declares, or undefined when it declares none; a declaration that is not a
 * non-empty list of role names stops the start, naming where (`at`, a JSON pointer's tokens).
 */
export function declaredRoles(operation: unknown, at: readonly string[]): readonly string[] | undefined {
  if (typeof operation !== 'object' || operation === null || !Object.hasOwn(operation, REQUIRED_ROLES))
    return undefined;
  const roles = (operation as Record<string, unknown>)[REQUIRED_ROLES];
  const names = Array.isArray(roles) && roles.length > 0 && roles.every((r) => typeof r === 'string' && r !== '');
  if (!names) throw new OpenApiDocumentError([...at, REQUIRED_ROLES], 'must be a non-empty list of role names');
  return roles as string[];
}

/**
 * `METHOD {prefix}/path/:param` (the route as Fastify names it) → the roles the document's
 * operation declares, for every operation of `paths` that declares some.
 */
export function requiredRolesByRoute(
  paths: Readonly<Record<string, unknown>>,
  prefix: string,
): ReadonlyMap<string, readonly string[]> {
  const routes = new Map<string, readonly string[]>();
  for (const [path, item] of Object.entries(paths))
    for (const method of METHODS) {
      const roles = declaredRoles((item as Record<string, unknown> | undefined)?.[method], ['paths', path, method]);
      if (roles !== undefined)
        routes.set(`${method.toUpperCase()} ${prefix}${path.replace(/\{([^}]+)\}/g, ':$1')}`, roles);
    }
  return routes;
}

/** Refuses with `insufficient_role` (403) unless the caller holds one of the roles `allowed`. */
export function requireOneRole(held: readonly string[], allowed: readonly string[]): void {
  if (held.some((role) => allowed.includes(role))) return;
  throw new ProblemError(
    'insufficient_role',
    `This operation needs the role ${allowed.map((role) => `'${role}'`).join(' or ')}.`,
  );
}
