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
  existingUser,
  setSecondFactorRequirement,
  setUserPassword,
  updateUser,
} from '../users/user-administration.js';
import { describeUser, normalizeUsername } from '../users/users.js';
import { describeFactor, listFactors, resetFactors } from '../factors/factors.js';
import { parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withContext, withStore } from './open-context.js';
import { inviteUser, listInvitations, revokeInvitation } from '../accounts/index.js';
import { parseDuration } from './durations.js';
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
    'require-second-factor': {
      type: 'boolean',
      help: 'the user sets up a second factor (an authenticator app) at its first sign-in',
    },
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
  options: {
    'password-stdin': PASSWORD_STDIN,
    temporary: { type: 'boolean', help: 'the user chooses a password of its own at its next sign-in' },
  },
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

const FACTORS = {
  name: 'users factors',
  summary: "a user's second factors and passkeys (kinds, names and dates, never a secret)",
  positionals: ['NAME'],
  options: {},
} as const;
const RESET_FACTORS = {
  name: 'users reset-factors',
  summary: "remove a user's second factors, recovery codes and passkeys; signs the user out of every browser",
  positionals: ['NAME'],
  options: {
    'require-enrolment': { type: 'boolean', help: 'the user sets up a second factor again at its next sign-in' },
  },
} as const satisfies CommandDeclaration;
const REQUIRE_SECOND_FACTOR = {
  name: 'users require-second-factor',
  summary: 'the user must have a second factor: one without sets up an authenticator app at its next sign-in',
  positionals: ['NAME'],
  options: { off: { type: 'boolean', help: 'no longer required of this user (the policies still apply)' } },
} as const satisfies CommandDeclaration;

const INVITE = {
  name: 'users invite',
  summary:
    'mail an invitation: the person chooses a username and a password, and the address is verified; an address with an account gets "sign in and accept"',
  options: {
    email: { type: 'string', value: 'ADDRESS', required: true, help: 'where the invitation goes' },
    group: { type: 'string', value: 'NAME', multiple: true, help: 'a group joined on acceptance' },
    organization: { type: 'string', value: 'ID|SLUG', help: 'an organization joined on acceptance' },
    'org-role': { type: 'string', value: 'ROLE', multiple: true, help: 'a role in --organization' },
    ttl: { type: 'string', value: 'DURATION', help: 'how long the link works (default 7d, at most 30d)' },
    locale: {
      type: 'string',
      value: 'TAG',
      help: "the mail's language when the address has no account that chose one",
    },
  },
} as const satisfies CommandDeclaration;
const INVITATIONS = { name: 'users invitations', summary: 'the open invitations', options: {} } as const;
const REVOKE_INVITATION = {
  name: 'users revoke-invitation',
  summary: 'revoke an open invitation: its link stops working',
  positionals: ['ID'],
  options: {},
} as const satisfies CommandDeclaration;

export const USER_COMMANDS: readonly CommandDeclaration[] = [
  ADD,
  UPDATE,
  LIST,
  REMOVE,
  PASSWD,
  DISABLE,
  ENABLE,
  FACTORS,
  RESET_FACTORS,
  REQUIRE_SECOND_FACTOR,
  INVITE,
  INVITATIONS,
  REVOKE_INVITATION,
];

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
        createUser(audit, username, password, clock.now(), claims, CLI_ACTOR, {
          secondFactorRequired: values['require-second-factor'] === true,
        }),
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
        setUserPassword(audit, username, password, clock.now(), CLI_ACTOR, { temporary: values.temporary === true }),
      );
      io.out(
        JSON.stringify(
          {
            username,
            password_changed: true,
            signed_out: true,
            ...(values.temporary === true ? { temporary: true } : {}),
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
    case 'factors': {
      const typed = parseCommand(FACTORS, args).positionals[0] as string;
      const factors = await withStore(config, async (store) =>
        listFactors(store, (await existingUser(store, typed)).subject),
      );
      io.out(JSON.stringify({ username: normalizeUsername(typed), factors: factors.map(describeFactor) }, null, 2));
      return 0;
    }
    case 'reset-factors': {
      const { values, positionals } = parseCommand(RESET_FACTORS, args);
      const typed = positionals[0] as string;
      const requireEnrolment = values['require-enrolment'] === true;
      const removed = await withStore(config, async (store, clock, audit) => {
        const user = await existingUser(store, typed);
        return resetFactors(audit, user, { now: clock.now(), actor: CLI_ACTOR, requireEnrolment });
      });
      io.out(JSON.stringify({ username: normalizeUsername(typed), removed, second_factor_required: requireEnrolment }));
      return 0;
    }
    case 'require-second-factor': {
      const { values, positionals } = parseCommand(REQUIRE_SECOND_FACTOR, args);
      const required = values.off !== true;
      const user = await withStore(config, (_store, clock, audit) =>
        setSecondFactorRequirement(audit, positionals[0] as string, required, clock.now(), CLI_ACTOR),
      );
      io.out(JSON.stringify(describeUser(user), null, 2));
      return 0;
    }
    case 'invite': {
      const { values } = parseCommand(INVITE, args);
      const ttl = values.ttl === undefined ? undefined : parseDuration(values.ttl);
      // The answer is the same whether the address has an account: the mail says what to do.
      const invitation = await withContext(config, (context) =>
        inviteUser(context, {
          email: values.email as string,
          groups: values.group ?? [],
          organization: values.organization,
          orgRoles: values['org-role'] ?? [],
          ttl,
          locale: values.locale,
          actor: CLI_ACTOR,
          now: context.clock.now(),
        }),
      );
      io.out(JSON.stringify(invitation, null, 2));
      return 0;
    }
    case 'invitations': {
      parseCommand(INVITATIONS, args);
      const open = await withStore(config, (store, clock) => listInvitations(store, clock.now()));
      io.out(JSON.stringify(open, null, 2));
      return 0;
    }
    case 'revoke-invitation': {
      const id = parseCommand(REVOKE_INVITATION, args).positionals[0] as string;
      await withStore(config, (_store, clock, audit) => revokeInvitation(audit, id, clock.now(), CLI_ACTOR));
      io.out(JSON.stringify({ id, revoked: true }));
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
