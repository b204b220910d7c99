/**
 * Groups, roles and their assignments: who may do what. The CLI and the admin API change them
 * (groups.ts, roles.ts); the token endpoint resolves them into the `roles` and `groups` claims of
 * RFC 9068 §2.2.3.1 (claims.ts); the admin API decides by the admin roles (admin-roles.ts).
 */
export {
  addGroupMember,
  createGroup,
  describeGroup,
  existingGroup,
  listGroupMembers,
  listGroups,
  listGroupsPage,
  removeGroup,
  removeGroupMember,
  showGroup,
  type GroupView,
} from './groups.js';
export {
  assignRole,
  createRole,
  describeRole,
  existingRole,
  listRoleHolders,
  listRoles,
  listRolesPage,
  removeRole,
  roleKeyOf,
  unassignRole,
  type NamedPrincipal,
  type RoleListFilter,
  type RoleView,
} from './roles.js';
export { ADMIN_API_PATH, checkedName, checkedScope, REST_API_AUDIENCE, scopeLabel } from './names.js';
export {
  accessClaims,
  apiOfAudience,
  cappedBy,
  MAX_CLAIM_BYTES,
  MAX_CLAIM_NAMES,
  OVERFLOW_SOURCE,
  type AccessClaims,
} from './claims.js';
export { ADMIN_ROLES, isAdminRole, type AdminRole } from './admin-roles.js';
