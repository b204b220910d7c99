import type { ServerConfig } from '../config.js';
import { CLI_ACTOR } from '../audit/audit.js';
import {
  addDomain,
  changeOrganization,
  createOrganization,
  describeDomain,
  describeMember,
  describeOrganization,
  existingOrganization,
  listMembers,
  putMember,
  removeDomain,
  removeMember,
  removeOrganization,
  type PolicyChange,
} from '../organizations/index.js';
import { listOf, parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

const ORG = ['ORG'] as const;

const ADD = {
  name: 'orgs add',
  summary: 'add an organization (docs/organizations.md)',
  positionals: ['SLUG'],
  options: {
    name: { type: 'string', value: 'NAME', help: 'its display name, in tokens as org_name (default: the slug)' },
    role: { type: 'string', multiple: true, value: 'ROLE', help: 'an organization role to define' },
  },
} as const satisfies CommandDeclaration;
const LIST = { name: 'orgs list', summary: 'every organization', options: {} } as const satisfies CommandDeclaration;
const SHOW = {
  name: 'orgs show',
  summary: 'an organization with its domains and policy',
  positionals: ORG,
  options: {},
} as const satisfies CommandDeclaration;
const REMOVE = {
  name: 'orgs remove',
  summary: "remove an organization: its members' grants made for it are revoked",
  positionals: ORG,
  options: {},
} as const satisfies CommandDeclaration;
const ROLES = {
  name: 'orgs roles',
  summary: "define or remove an organization's roles (a removed role is taken from every member)",
  positionals: ORG,
  options: {
    add: { type: 'string', multiple: true, value: 'ROLE', help: 'a role to define' },
    remove: { type: 'string', multiple: true, value: 'ROLE', help: 'a role to remove' },
    name: { type: 'string', value: 'NAME', help: 'rename the organization' },
  },
} as const satisfies CommandDeclaration;
const MEMBERS_ADD = {
  name: 'orgs members add',
  summary: "make a user a member, or set a member's roles",
  positionals: [...ORG, 'USERNAME'],
  options: { role: { type: 'string', multiple: true, value: 'ROLE', help: 'an organization role of the member' } },
} as const satisfies CommandDeclaration;
const MEMBERS_REMOVE = {
  name: 'orgs members remove',
  summary: "remove a member: the member's grants made for the organization are revoked",
  positionals: [...ORG, 'USERNAME'],
  options: {},
} as const satisfies CommandDeclaration;
const MEMBERS_LIST = {
  name: 'orgs members list',
  summary: 'the members of an organization with their roles',
  positionals: ORG,
  options: {},
} as const satisfies CommandDeclaration;
const DOMAINS_ADD = {
  name: 'orgs domains add',
  summary: 'add an e-mail domain (never a public mail domain such as gmail.com)',
  positionals: [...ORG, 'DOMAIN'],
  options: {
    verified: {
      type: 'boolean',
      help: 'the operator has checked the organization owns it: it counts for JIT membership and home-realm discovery',
    },
  },
} as const satisfies CommandDeclaration;
const DOMAINS_REMOVE = {
  name: 'orgs domains remove',
  summary: 'remove an e-mail domain (its members stay members)',
  positionals: [...ORG, 'DOMAIN'],
  options: {},
} as const satisfies CommandDeclaration;
const POLICY_SET = {
  name: 'orgs policy set',
  summary: "change an organization's sign-in policy (only the options given change)",
  positionals: ORG,
  options: {
    'second-factor': { type: 'string', value: 'required|optional', help: 'a sign-in for it passes a second factor' },
    'sign-in-methods': { type: 'string', value: 'LIST', help: 'of password, passkey, federation' },
    upstream: { type: 'string', value: 'ID', help: "the upstream of home-realm discovery ('' for none)" },
    'default-role': { type: 'string', value: 'ROLE', help: "the role of a member joined by domain ('' for none)" },
  },
} as const satisfies CommandDeclaration;

export const ORGANIZATION_COMMANDS: readonly CommandDeclaration[] = [
  ADD,
  LIST,
  SHOW,
  REMOVE,
  ROLES,
  MEMBERS_ADD,
  MEMBERS_REMOVE,
  MEMBERS_LIST,
  DOMAINS_ADD,
  DOMAINS_REMOVE,
  POLICY_SET,
];

/** `gatehouse orgs …`: organizations, their members, domains and policy, through organizations/. */
export async function organizationsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const print = (value: unknown) => io.out(JSON.stringify(value, null, 2));
  switch (sub) {
    case 'add': {
      const { positionals, values } = parseCommand(ADD, args);
      const row = await withStore(config, (_store, clock, audit) =>
        createOrganization(
          audit,
          { slug: positionals[0] as string, name: values.name, roles: values.role },
          clock.now(),
          CLI_ACTOR,
        ),
      );
      print(describeOrganization(row));
      return 0;
    }
    case 'list': {
      parseCommand(LIST, args);
      print(await withStore(config, async (store) => (await store.listOrganizations()).map(describeOrganization)));
      return 0;
    }
    case 'show': {
      const org = parseCommand(SHOW, args).positionals[0] as string;
      print(
        await withStore(config, async (store) => {
          const row = await existingOrganization(store, org);
          return {
            ...describeOrganization(row),
            domains: (await store.listOrganizationDomains(row.id)).map(describeDomain),
          };
        }),
      );
      return 0;
    }
    case 'remove': {
      const org = parseCommand(REMOVE, args).positionals[0] as string;
      await withStore(config, (_store, clock, audit) => removeOrganization(audit, org, clock.now(), CLI_ACTOR));
      print({ organization: org, removed: true });
      return 0;
    }
    case 'roles': {
      const { positionals, values } = parseCommand(ROLES, args);
      const row = await withStore(config, (_store, clock, audit) =>
        changeOrganization(
          audit,
          positionals[0] as string,
          { name: values.name, addRoles: values.add, removeRoles: values.remove },
          clock.now(),
          CLI_ACTOR,
        ),
      );
      print(describeOrganization(row));
      return 0;
    }
    case 'members':
      return membersCommand(args, config, print);
    case 'domains':
      return domainsCommand(args, config, print);
    case 'policy': {
      const [verb, ...rest] = args;
      if (verb !== 'set') throw unknownCommand('orgs policy command', verb, ['set']);
      const { positionals, values } = parseCommand(POLICY_SET, rest);
      const change: PolicyChange = {
        second_factor: values['second-factor'],
        sign_in_methods: listOf(values['sign-in-methods']),
        upstream: values.upstream,
        default_role: values['default-role'] === '' ? null : values['default-role'],
      };
      const row = await withStore(config, (_store, clock, audit) =>
        changeOrganization(audit, positionals[0] as string, { policy: change }, clock.now(), CLI_ACTOR),
      );
      print(describeOrganization(row));
      return 0;
    }
    default:
      throw unknownCommand('orgs command', sub, [
        'add',
        'list',
        'show',
        'remove',
        'roles',
        'members',
        'domains',
        'policy',
      ]);
  }
}

async function membersCommand([verb, ...args]: string[], config: ServerConfig, print: (v: unknown) => void) {
  switch (verb) {
    case 'add': {
      const { positionals, values } = parseCommand(MEMBERS_ADD, args);
      const [org, username] = positionals as [string, string];
      const member = await withStore(config, (_store, clock, audit) =>
        putMember(audit, org, username, values.role ?? [], clock.now(), CLI_ACTOR),
      );
      print(describeMember(member, username));
      return 0;
    }
    case 'remove': {
      const [org, username] = parseCommand(MEMBERS_REMOVE, args).positionals as [string, string];
      await withStore(config, (_store, clock, audit) => removeMember(audit, org, username, clock.now(), CLI_ACTOR));
      print({ organization: org, username, removed: true });
      return 0;
    }
    case 'list': {
      const org = parseCommand(MEMBERS_LIST, args).positionals[0] as string;
      const members = await withStore(config, (store) => listMembers(store, org));
      print(members.map(({ member, username }) => describeMember(member, username)));
      return 0;
    }
    default:
      throw unknownCommand('orgs members command', verb, ['add', 'remove', 'list']);
  }
}

async function domainsCommand([verb, ...args]: string[], config: ServerConfig, print: (v: unknown) => void) {
  switch (verb) {
    case 'add': {
      const { positionals, values } = parseCommand(DOMAINS_ADD, args);
      const [org, domain] = positionals as [string, string];
      const row = await withStore(config, (_store, clock, audit) =>
        addDomain(audit, org, domain, values.verified === true, clock.now(), CLI_ACTOR),
      );
      print(describeDomain(row));
      return 0;
    }
    case 'remove': {
      const [org, domain] = parseCommand(DOMAINS_REMOVE, args).positionals as [string, string];
      await withStore(config, (_store, clock, audit) => removeDomain(audit, org, domain, clock.now(), CLI_ACTOR));
      print({ organization: org, domain, removed: true });
      return 0;
    }
    default:
      throw unknownCommand('orgs domains command', verb, ['add', 'remove']);
  }
}
