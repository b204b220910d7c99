import type { ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { generatePassword } from '../users/passwords.js';
import { CLAIM_OPTIONS, claimsFromOptions } from '../users/claims.js';
import { CLI_ACTOR } from '../audit/audit.js';
import {
  createUser,
  deleteUser,
  disableUser,
  enableUser,
  setUserPassword,
  updateUser,
} from '../users/user-administration.js';
import { describeUser } from '../users/users.js';
import { parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

/** The OIDC claims' options (users/claims.ts), with their help. */
const CLAIMS = Object.fromEntries(
  Object.keys(CLAIM_OPTIONS).map((option) => [
    option,
    {
      type: 'string' as const,
      value: option === 'email-verified' ? 'true|false' : 'VALUE',
      help: `the claim ${option.replaceAll('-', '_')} (empty removes it)`,
    },
  ]),
) as Record<keyof typeof CLAIM_OPTIONS, { readonly type: 'string'; readonly value: string; readonly help: string }>;
const PASSWORD_STDIN = {
  type: 'boolean',
  help: 'read the password from standard input; without it, one is made and shown once',
} as const;

const ADD = {
  name: 'users add',
  summary: 'add a user who signs in on the authorization pages',
  options: {
    username: { type: 'string', value: 'NAME', required: true, help: 'the username' },
    'password-stdin': PASSWORD_STDIN,
    ...CLAIMS,
  },
} as const satisfies CommandDeclaration;
const UPDATE = {
  name: 'users update',
  summary: "change a user's claims; --username renames (the OIDC sub stays, the user is signed out)",
  positionals: ['NAME'],
  options: { ...CLAIMS, username: { type: 'string', value: 'NEW', help: 'the new username' } },
} as const satisfies CommandDeclaration;
const LIST = { name: 'users list', summary: 'every user', options: {} } as const;
const REMOVE = {
  name: 'users remove',
  summary: 'remove a user; also revokes every grant the user gave',
  positionals: ['NAME'],
  options: {},
} as const;
const PASSWD = {
  name: 'users passwd',
  summary: "set a user's password; also signs the user out of every browser",
  positionals: ['NAME'],
  options: { 'password-stdin': PASSWORD_STDIN },
} as const satisfies CommandDeclaration;
const DISABLE = {
  name: 'users disable',
  summary: 'stop a user signing in: signs the user out and revokes every grant the user gave',
  positionals: ['NAME'],
  options: {},
} as const;
const ENABLE = {
  name: 'users enable',
  summary: 'let a disabled user sign in again (revoked grants stay revoked)',
  positionals: ['NAME'],
  options: {},
} as const;

export const USER_COMMANDS: readonly CommandDeclaration[] = [ADD, UPDATE, LIST, REMOVE, PASSWD, DISABLE, ENABLE];

/**
 * `gatehouse users add|update|list|remove|passwd|disable|enable`, through users/user-administration.ts,
 * as the admin API.
 */
export async function usersCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'add': {
      const { values } = parseCommand(ADD, args);
      const username = values.username as string;
      const claims = claimsFromOptions(values);
      // Without --password-stdin a strong password is made and shown this once: only its hash is kept.
      const generated = values['password-stdin'] ? undefined : generatePassword();
      const password = generated ?? (await passwordFromStdin(io));
      const user = await withStore(config, (_store, clock, audit) =>
        createUser(audit, username, password, clock.now(), claims, CLI_ACTOR),
      );
      io.out(
        JSON.stringify({ ...describeUser(user), ...(generated === undefined ? {} : { password: generated }) }, null, 2),
      );
      return 0;
    }
    case 'update': {
      const { values, positionals } = parseCommand(UPDATE, args);
      const typed = positionals[0] as string;
      // --username renames; the subject (the OIDC sub) stays.
      const user = await withStore(config, (_store, clock, audit) =>
        updateUser(
          audit,
          typed,
          (current) => claimsFromOptions(values, current),
          values.username,
          clock.now(),
          CLI_ACTOR,
        ),
      );
      io.out(JSON.stringify(describeUser(user), null, 2));
      return 0;
    }
    case 'list': {
      parseCommand(LIST, args);
      const users = await withStore(config, (store) => store.listUsers());
      io.out(JSON.stringify(users.map(describeUser), null, 2));
      return 0;
    }
    case 'remove': {
      const username = parseCommand(REMOVE, args).positionals[0] as string;
      const { removed, grantsRevoked } = await withStore(config, (_store, clock, audit) =>
        deleteUser(audit, username, clock.now(), CLI_ACTOR),
      );
      if (!removed) throw new OperatorInputError(`no user '${username}'`);
      io.out(JSON.stringify({ username, removed, grants_revoked: grantsRevoked }));
      return 0;
    }
    case 'passwd': {
      const { values, positionals } = parseCommand(PASSWD, args);
      const username = positionals[0] as string;
      const generated = values['password-stdin'] ? undefined : generatePassword();
      const password = generated ?? (await passwordFromStdin(io));
      await withStore(config, (_store, clock, audit) =>
        setUserPassword(audit, username, password, clock.now(), CLI_ACTOR),
      );
      io.out(
        JSON.stringify(
          {
            username,
            password_changed: true,
            signed_out: true,
            ...(generated === undefined ? {} : { password: generated }),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    case 'disable':
    case 'enable': {
      const typed = parseCommand(sub === 'disable' ? DISABLE : ENABLE, args).positionals[0] as string;
      const change = sub === 'disable' ? disableUser : enableUser;
      const user = await withStore(config, (_store, clock, audit) => change(audit, typed, clock.now(), CLI_ACTOR));
      io.out(JSON.stringify(describeUser(user), null, 2));
      return 0;
    }
    default:
      throw unknownCommand('users command', sub, USER_COMMANDS);
  }
}

/** The password on standard input, without the line end a shell or `echo` adds. */
async function passwordFromStdin(io: CliIo): Promise<string> {
  const text = io.readInput ? await io.readInput() : await readProcessStdin();
  return text.replace(/\r?\n$/, '');
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
