/** The admin API's operations on groups and roles (access-routes.ts), for its document (document.ts). */
import type { Operation } from './document.js';

type Json = Record<string, unknown>;

/** How document.ts writes an operation and its parameters. */
interface Writers {
  readonly operation: (op: Operation) => Json;
  readonly query: (name: string, description: string) => Json;
  readonly pathParameter: (name: string, description: string) => Json;
  /** `cursor` and `limit`, as every list of the admin API takes them. */
  readonly paging: readonly Json[];
  readonly search: (what: string) => Json;
}

export function accessPaths({ operation, query, pathParameter, paging, search }: Writers): Record<string, Json> {
  const API = query('api', "The role's API (/v2 or a resource server's client id); left out: the server-wide role.");
  const GROUP = pathParameter('group', 'The group name.');
  const ROLE = pathParameter('role', 'The role name.');
  return {
    '/groups': {
      get: operation({
        id: 'listGroups',
        summary: 'A page of the groups, by name, each with its parent; searched in the store.',
        writes: false,
        success: ['200', 'GroupList'],
        query: [...paging, search('Only groups whose name contains this text (any case)')],
      }),
      post: operation({
        id: 'createGroup',
        summary: 'Makes a group, under a parent when given; audits group_created.',
        writes: true,
        success: ['201', 'Group'],
        body: 'GroupCreate',
        problems: [404, 409],
        location: true,
      }),
    },
    '/groups/{group}': {
      parameters: [GROUP],
      get: operation({
        id: 'getGroup',
        summary: 'The group, with its parent.',
        writes: false,
        success: ['200', 'Group'],
        problems: [404],
      }),
      delete: operation({
        id: 'deleteGroup',
        summary: 'Removes a group without subgroups, its memberships and role assignments; audits group_removed.',
        writes: true,
        success: ['204', null],
        problems: [404, 409, 413, 415],
      }),
    },
    '/groups/{group}/members': {
      parameters: [GROUP],
      get: operation({
        id: 'listGroupMembers',
        summary: "The usernames of the group's direct members.",
        writes: false,
        success: ['200', 'GroupMembers'],
        problems: [404],
      }),
    },
    '/groups/{group}/members/{username}': {
      parameters: [GROUP, pathParameter('username', 'The username.')],
      put: operation({
        id: 'addGroupMember',
        summary: 'Adds the user to the group (again: nothing changes); audits group_member_added.',
        writes: true,
        success: ['204', null],
        problems: [404, 413, 415],
      }),
      delete: operation({
        id: 'removeGroupMember',
        summary: 'Removes the user from the group, from its next access token on; audits group_member_removed.',
        writes: true,
        success: ['204', null],
        problems: [404, 413, 415],
      }),
    },
    '/roles': {
      get: operation({
        id: 'listRoles',
        summary:
          'A page of the roles of the server and of its APIs (or of one API, or held by one holder): the server-wide ones first, then by API, each by name; searched in the store.',
        writes: false,
        success: ['200', 'RoleList'],
        query: [
          API,
          ...paging,
          search('Only roles whose name, description or API contains this text (any case)'),
          query(
            'holder',
            'Only the roles this holder holds directly: user:USERNAME, group:NAME or client:CLIENT_ID (as the holders list writes them).',
          ),
        ],
        problems: [404, 422],
      }),
      post: operation({
        id: 'createRole',
        summary: 'Makes a role of an API, or server-wide; audits role_created.',
        writes: true,
        success: ['201', 'Role'],
        body: 'RoleCreate',
        problems: [404, 409],
        location: true,
      }),
    },
    '/roles/{role}': {
      parameters: [ROLE],
      get: operation({
        id: 'getRole',
        summary: 'The role.',
        writes: false,
        success: ['200', 'Role'],
        query: [API],
        problems: [404, 422],
      }),
      delete: operation({
        id: 'deleteRole',
        summary: "Removes the role and every assignment of it (not the admin API's own); audits role_removed.",
        writes: true,
        success: ['204', null],
        query: [API],
        problems: [404, 413, 415, 422],
      }),
    },
    '/roles/{role}/holders': {
      parameters: [ROLE],
      get: operation({
        id: 'listRoleHolders',
        summary: 'Who holds the role directly.',
        writes: false,
        success: ['200', 'RoleHolders'],
        query: [API],
        problems: [404, 422],
      }),
    },
    '/roles/{role}/assign': {
      parameters: [ROLE],
      post: operation({
        id: 'assignRole',
        summary: "Gives the role to a user, a group or a client, in the holders' next tokens; audits role_assigned.",
        writes: true,
        success: ['204', null],
        body: 'RoleHolder',
        query: [API],
        problems: [404],
      }),
    },
    '/roles/{role}/unassign': {
      parameters: [ROLE],
      post: operation({
        id: 'unassignRole',
        summary: 'Takes the role back, from the next access token on; audits role_unassigned.',
        writes: true,
        success: ['204', null],
        body: 'RoleHolder',
        query: [API],
        problems: [404],
      }),
    },
  };
}
