import {
  assignRole,
  createRole,
  describeRole,
  listRoleHolders,
  listRoles,
  removeRole,
  unassignRole,
  type NamedPrincipal,
} from '../access/index.js';
import { CLI_ACTOR } from '../audit/audit.js';
import type { ServerConfig } from '../config.js';
import { normalizeUsername } from '../users/users.js';
import { parseCommand, UsageError, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

const API = {
  type: 'string',
  value: 'AUDIENCE',
  help: "the API the role is of: /v2 (the REST API) or a resource server's client id",
} as const;
const SERVER_WIDE = {
  type: 'boolean',
  help: 'a server-wide role (carried in every access token of its holders)',
} as const;

const ADD = {
  name: 'roles add',
  summary: 'a role of an API (--api) or of the whole server (--server-wide)',
  positionals: ['NAME'],
  options: {
    api: API,
    'server-wide': SERVER_WIDE,
    description: { type: 'string', value: 'TEXT', help: 'what the role allows, for operators' },
  },
} as const satisfies CommandDeclaration;

const LIST = {
  name: 'roles list',
  summary: "every role (or an API's), with its API (null: server-wide)",
  options: { api: API },
} as const satisfies CommandDeclaration;

const REMOVE = {
  name: 'roles remove',
  summary: "remove a role and every assignment of it (not the admin API's own roles)",
  positionals: ['NAME'],
  options: { api: API, 'server-wide': SERVER_WIDE },
} as const satisfies CommandDeclaration;

const PRINCIPAL = {
  user: { type: 'string', value: 'USERNAME', help: 'a user' },
  group: { type: 'string', value: 'GROUP', help: "a group: its members and its subgroups' members" },
  client: { type: 'string', value: 'ID', help: "a client (server-wide roles only: the admin API's)" },
} as const;

const ASSIGN = {
  name: 'roles assign',
  summary: "give a role to a user, a group or a client: in the holders' next access tokens",
  positionals: ['NAME'],
  options: { api: API, 'server-wide': SERVER_WIDE, ...PRINCIPAL },
} as const satisfies CommandDeclaration;

const UNASSIGN = {
  name: 'roles unassign',
  summary: 'take a role back: gone from the next access token (at the next refresh)',
  positionals: ['NAME'],
  options: { api: API, 'server-wide': SERVER_WIDE, ...PRINCIPAL },
} as const satisfies CommandDeclaration;

const HOLDERS = {
  name: 'roles holders',
  summary: 'who holds a role directly: user:NAME, group:NAME, client:ID',
  positionals: ['NAME'],
  options: { api: API, 'server-wide': SERVER_WIDE },
} as const satisfies CommandDeclaration;

export const ROLE_COMMANDS: readonly CommandDeclaration[] = [ADD, LIST, REMOVE, ASSIGN, UNASSIGN, HOLDERS];

/** The API of `--api`, or undefined for `--server-wide`; exactly one of them. */
function apiOf(
  name: string,
  values: { api?: string | undefined; 'server-wide'?: boolean | undefined },
): string | undefined {
  if ((values.api === undefined) === (values['server-wide'] !== true))
    throw new UsageError(`${name} needs --api AUDIENCE or --server-wide, not both`);
  return values.api;
}

/** The one --user, --group or --client given. */
function principalOf(
  name: string,
  values: { user?: string | undefined; group?: string | undefined; client?: string | undefined },
): NamedPrincipal {
  const given = [values.user, values.group, values.client].filter((v) => v !== undefined);
  if (given.length !== 1) throw new UsageError(`${name} needs one of --user, --group and --client`);
  if (values.user !== undefined) return { user: normalizeUsername(values.user) };
  if (values.group !== undefined) return { group: values.group };
  return { client: values.client as string };
}

/** `gatehouse roles add|list|remove|assign|unassign|holders`. */
export async function rolesCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'add': {
      const { positionals, values } = parseCommand(ADD, args);
      const api = apiOf(ADD.name, values);
      const role = await withStore(config, (_store, clock, audit) =>
        createRole(
          audit,
          { name: positionals[0] as string, api, description: values.description },
          clock.now(),
          CLI_ACTOR,
        ),
      );
      io.out(JSON.stringify(describeRole(role), null, 2));
      return 0;
    }
    case 'list': {
      const { values } = parseCommand(LIST, args);
      io.out(JSON.stringify(await withStore(config, (store) => listRoles(store, values.api)), null, 2));
      return 0;
    }
    case 'remove': {
      const { positionals, values } = parseCommand(REMOVE, args);
      const [name, api] = [positionals[0] as string, apiOf(REMOVE.name, values)];
      await withStore(config, (_store, clock, audit) => removeRole(audit, name, api, clock.now(), CLI_ACTOR));
      io.out(JSON.stringify({ role: name, api: api ?? null, removed: true }));
      return 0;
    }
    case 'assign':
    case 'unassign': {
      const declaration = sub === 'assign' ? ASSIGN : UNASSIGN;
      const { positionals, values } = parseCommand(declaration, args);
      const role = { name: positionals[0] as string, api: apiOf(declaration.name, values) };
      const principal = principalOf(declaration.name, values);
      const changed = await withStore(config, async (_store, clock, audit) => {
        if (sub === 'assign') return assignRole(audit, role, principal, clock.now(), CLI_ACTOR);
        await unassignRole(audit, role, principal, clock.now(), CLI_ACTOR);
        return true;
      });
      const answer = { role: role.name, api: role.api ?? null, ...principal };
      io.out(
        JSON.stringify(
          sub === 'assign' ? { ...answer, assigned: changed, already_held: !changed } : { ...answer, unassigned: true },
        ),
      );
      return 0;
    }
    case 'holders': {
      const { positionals, values } = parseCommand(HOLDERS, args);
      const [name, api] = [positionals[0] as string, apiOf(HOLDERS.name, values)];
      const holders = await withStore(config, (store) => listRoleHolders(store, name, api));
      io.out(JSON.stringify({ role: name, api: api ?? null, holders }, null, 2));
      return 0;
    }
    default:
      throw unknownCommand('roles command', sub, ROLE_COMMANDS);
  }
}
