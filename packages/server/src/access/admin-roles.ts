/**
 * The server-wide roles of the admin API, made by migration 0028 and never removed: `admin` may do
 * everything, `user-manager` manages users (their grants, sessions, factors and invitations) but no
 * clients, keys or upstream providers, `auditor` reads everything and changes nothing.
 */
export const ADMIN_ROLES = ['admin', 'user-manager', 'auditor'] as const;

export type AdminRole = (typeof ADMIN_ROLES)[number];

export function isAdminRole(name: string): name is AdminRole {
  return (ADMIN_ROLES as readonly string[]).includes(name);
}
