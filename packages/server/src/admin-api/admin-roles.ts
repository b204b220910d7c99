import { ADMIN_ROLES, type AdminRole } from '../access/index.js';

/**
 * Which admin roles may call an operation of the admin API, by what it touches and whether it
 * changes anything: `admin` everything; `user-manager` users and their grants, sessions and factors
 * (`/users…`, `/grants…`), no clients, keys, upstream providers, records or audit trail; `auditor`
 * every read and no change. The document declares the result on each operation
 * (`x-required-roles`) and the caller check (caller.ts) reads it from there: one source.
 */
export function rolesAllowed(path: string, method: string): readonly AdminRole[] {
  const writes = method.toLowerCase() !== 'get';
  const users = path.startsWith('/users') || path.startsWith('/grants');
  return ADMIN_ROLES.filter(
    (role) => role === 'admin' || (role === 'user-manager' && users) || (role === 'auditor' && !writes),
  );
}

export { REQUIRED_ROLES } from '../json-api/required-roles.js';
