import {
  addGroupMember,
  createGroup,
  describeGroup,
  listGroupMembers,
  listGroups,
  removeGroup,
  removeGroupMember,
} from '../access/index.js';
import { CLI_ACTOR } from '../audit/audit.js';
import type { ServerConfig } from '../config.js';
import { normalizeUsername } from '../users/users.js';
import { parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

const ADD = {
  name: 'groups add',
  summary: 'a group of users; under --parent, its members are members of the parent too',
  positionals: ['NAME'],
  options: { parent: { type: 'string', value: 'GROUP', help: 'the group this one belongs to' } },
} as const satisfies CommandDeclaration;

const LIST = {
  name: 'groups list',
  summary: 'every group, by name, with its parent',
  options: {},
} as const satisfies CommandDeclaration;

const REMOVE = {
  name: 'groups remove',
  summary: 'remove a group (not one with subgroups), its memberships and the roles assigned to it',
  positionals: ['NAME'],
  options: {},
} as const satisfies CommandDeclaration;

const MEMBERS_ADD = {
  name: 'groups members add',
  summary: "add a user to a group: its next access token carries the group and the group's roles",
  positionals: ['GROUP', 'USERNAME'],
  options: {},
} as const satisfies CommandDeclaration;

const MEMBERS_REMOVE = {
  name: 'groups members remove',
  summary: 'remove a user from a group: gone from its next access token (at the next refresh)',
  positionals: ['GROUP', 'USERNAME'],
  options: {},
} as const satisfies CommandDeclaration;

const MEMBERS_LIST = {
  name: 'groups members list',
  summary: "the usernames of a group's direct members",
  positionals: ['GROUP'],
  options: {},
} as const satisfies CommandDeclaration;

export const GROUP_COMMANDS: readonly CommandDeclaration[] = [
  ADD,
  LIST,
  REMOVE,
  MEMBERS_ADD,
  MEMBERS_REMOVE,
  MEMBERS_LIST,
];

/** `gatehouse groups add|list|remove|members …`. */
export async function groupsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'add': {
      const { positionals, values } = parseCommand(ADD, args);
      const name = positionals[0] as string;
      const group = await withStore(config, (_store, clock, audit) =>
        createGroup(audit, name, values.parent, clock.now(), CLI_ACTOR),
      );
      io.out(JSON.stringify(describeGroup(group, values.parent ?? null), null, 2));
      return 0;
    }
    case 'list': {
      parseCommand(LIST, args);
      io.out(JSON.stringify(await withStore(config, (store) => listGroups(store)), null, 2));
      return 0;
    }
    case 'remove': {
      const name = parseCommand(REMOVE, args).positionals[0] as string;
      await withStore(config, (_store, clock, audit) => removeGroup(audit, name, clock.now(), CLI_ACTOR));
      io.out(JSON.stringify({ group: name, removed: true }));
      return 0;
    }
    case 'members':
      return membersCommand(args, config, io);
    default:
      throw unknownCommand('groups command', sub, [...GROUP_COMMANDS.slice(0, 3), 'members']);
  }
}

async function membersCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'add': {
      const [group, typed] = parseCommand(MEMBERS_ADD, args).positionals as [string, string];
      const username = normalizeUsername(typed);
      const added = await withStore(config, (_store, clock, audit) =>
        addGroupMember(audit, group, username, clock.now(), CLI_ACTOR),
      );
      io.out(JSON.stringify({ group, username, added, already_member: !added }));
      return 0;
    }
    case 'remove': {
      const [group, typed] = parseCommand(MEMBERS_REMOVE, args).positionals as [string, string];
      const username = normalizeUsername(typed);
      await withStore(config, (_store, clock, audit) =>
        removeGroupMember(audit, group, username, clock.now(), CLI_ACTOR),
      );
      io.out(JSON.stringify({ group, username, removed: true }));
      return 0;
    }
    case 'list': {
      const group = parseCommand(MEMBERS_LIST, args).positionals[0] as string;
      const members = await withStore(config, (store) => listGroupMembers(store, group));
      io.out(JSON.stringify({ group, members }, null, 2));
      return 0;
    }
    default:
      throw unknownCommand('groups members command', sub, GROUP_COMMANDS.slice(3));
  }
}
