import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { generatePassword } from '../users/passwords.js';
import { CLAIM_OPTIONS, claimsFromOptions } from '../users/claims.js';
import { CLI_ACTOR } from '../audit/audit.js';
import { createUser, deleteUser, setUserPassword, updateUser } from '../users/user-administration.js';
import { describeUser } from '../users/users.js';
import { withStore } from './open-context.js';
import { unknownCommand, UsageError, type CliIo } from './run.js';

/** `gatehouse users add|update|list|remove|passwd`; add and update take the OIDC claims (`--name`, `--email`, …). */
export async function usersCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'add': {
      const { values } = parseArgs({
        args,
        options: { username: { type: 'string' }, 'password-stdin': { type: 'boolean' }, ...CLAIM_OPTIONS },
      });
      if (values.username === undefined) throw new UsageError('users add needs --username');
      const username = values.username;
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
      const { values, positionals } = parseArgs({
        args,
        options: { ...CLAIM_OPTIONS, username: { type: 'string' } },
        allowPositionals: true,
      });
      if (positionals.length !== 1) throw new UsageError('users update takes one username');
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
      parseArgs({ args, options: {} });
      const users = await withStore(config, (store) => store.listUsers());
      io.out(JSON.stringify(users.map(describeUser), null, 2));
      return 0;
    }
    case 'remove': {
      const username = oneName(args, 'users remove takes one username');
      const { removed, grantsRevoked } = await withStore(config, (_store, clock, audit) =>
        deleteUser(audit, username, clock.now(), CLI_ACTOR),
      );
      if (!removed) throw new OperatorInputError(`no user '${username}'`);
      io.out(JSON.stringify({ username, removed, grants_revoked: grantsRevoked }));
      return 0;
    }
    case 'passwd': {
      const { values, positionals } = parseArgs({
        args,
        options: { 'password-stdin': { type: 'boolean' } },
        allowPositionals: true,
      });
      if (positionals.length !== 1) throw new UsageError('users passwd takes one username');
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
    default:
      throw unknownCommand('users command', sub, ['add', 'update', 'list', 'remove', 'passwd']);
  }
}

function oneName(args: string[], usage: string): string {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError(usage);
  return positionals[0] as string;
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
