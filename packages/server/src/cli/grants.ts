import { CLI_ACTOR } from '../audit/audit.js';
import { grantState, revokeGrantAsAdmin } from '../oauth/grant-administration/index.js';
import type { ServerConfig } from '../config.js';
import { issueOperatorGrant } from '../oauth/grant-administration/index.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { GrantRecord } from '../primitives/records.js';
import type { GrantFilter } from '../store/admin-repository.js';
import type { Store } from '../store/store.js';
import { normalizeUsername } from '../users/users.js';
import { listOf, parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withContext, withStore } from './open-context.js';
import type { CliIo } from './run.js';

const LIST = {
  name: 'grants list',
  summary: 'grants, oldest id first, with their state (active, expired or revoked)',
  options: {
    user: { type: 'string', value: 'NAME', help: "only this user's grants" },
    client: { type: 'string', value: 'ID', help: "only this client's grants" },
  },
} as const satisfies CommandDeclaration;

const ISSUE = {
  name: 'grants issue',
  summary: 'a grant and its tokens, for ISSUER, else the issuer the server last ran with (printed)',
  options: {
    client: { type: 'string', value: 'ID', required: true, help: 'the client' },
    user: {
      type: 'string',
      value: 'NAME',
      required: true,
      help: 'the existing user the grant is for (sub: its subject)',
    },
    scope: { type: 'string', value: 'LIST', help: "the scope, within the client's" },
  },
} as const satisfies CommandDeclaration;

const REVOKE = {
  name: 'grants revoke',
  summary: 'revoke a grant: its refresh and access tokens stop working at once',
  positionals: ['GRANT_ID'],
  options: {},
} as const satisfies CommandDeclaration;

export const GRANT_COMMANDS: readonly CommandDeclaration[] = [LIST, ISSUE, REVOKE];

/** How many grants one query reads while listing them all. */
const PAGE = 500;

/** `gatehouse grants list|issue|revoke`. */
export async function grantsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'list': {
      const { values } = parseCommand(LIST, args);
      const rows = await withStore(config, async (store, clock) => {
        // Grants name their user by subject: a name that is no user's has none.
        const user = values.user === undefined ? undefined : await store.findUser(normalizeUsername(values.user));
        if (values.user !== undefined && user === undefined) return [];
        const filter: GrantFilter = {
          ...(user === undefined ? {} : { subject: user.subject }),
          ...(values.client === undefined ? {} : { clientId: values.client }),
        };
        const grants = await allGrants(store, filter);
        const usernames = await usernamesOf(store, grants);
        return grants.map((grant) => grantRow(grant, usernames.get(grant.subject) ?? null, clock.now()));
      });
      io.out(JSON.stringify(rows, null, 2));
      return 0;
    }
    case 'issue': {
      const { values } = parseCommand(ISSUE, args);
      const [client, user] = [values.client as string, values.user as string];
      // The issuer is printed: a server with another one refuses these tokens (RFC 9068 §4 `iss`, `aud`).
      const issued = await withContext(config, async (context) => ({
        issuer: context.issuer,
        ...(await issueOperatorGrant(context, client, user, listOf(values.scope) ?? [])),
      }));
      io.out(JSON.stringify(issued, null, 2));
      return 0;
    }
    case 'revoke': {
      const id = parseCommand(REVOKE, args).positionals[0] as string;
      const found = await withStore(config, (_store, clock, audit) =>
        revokeGrantAsAdmin(audit, id, clock.now(), CLI_ACTOR),
      );
      if (!found) throw new OperatorInputError(`no grant '${id}'`);
      io.out(JSON.stringify({ grant_id: id, revoked: true, already_revoked: found.revokedAt !== null }));
      return 0;
    }
    default:
      throw unknownCommand('grants command', sub, GRANT_COMMANDS);
  }
}

async function allGrants(store: Store, filter: GrantFilter): Promise<GrantRecord[]> {
  const grants: GrantRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.listGrantsPage(filter, after, PAGE);
    grants.push(...page);
    if (page.length < PAGE) return grants;
    after = page.at(-1)?.id;
  }
}

/**
 * The username of each subject the grants name, read once per user. An operator asks by username
 * and reads by username; the subject stays beside it, since the username may change and the
 * subject is what tokens, audit events and records carry.
 */
async function usernamesOf(store: Store, grants: readonly GrantRecord[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const subject of new Set(grants.map((g) => g.subject))) {
    const user = await store.findUserBySubject(subject);
    if (user !== undefined) names.set(subject, user.username);
  }
  return names;
}

/** A grant as an operator reads it in a list; `username` null once the user is gone. */
function grantRow(grant: GrantRecord, username: string | null, now: number): Record<string, unknown> {
  const iso = (t: number | null): string | null => (t === null ? null : new Date(t * 1000).toISOString());
  return {
    grant_id: grant.id,
    client_id: grant.clientId,
    username,
    subject: grant.subject,
    scope: grant.scope.join(' '),
    created_at: iso(grant.createdAt),
    last_rotated_at: iso(grant.rotatedAt),
    state: grantState(grant, now),
  };
}
