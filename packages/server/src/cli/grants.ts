import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit.js';
import { revokeGrantAsAdmin } from '../oauth/grant-administration.js';
import type { ServerConfig } from '../config.js';
import { issueOperatorGrant } from '../oauth/operator-grants.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { withContext, withStore } from './open-context.js';
import { listOf, unknownCommand, UsageError, type CliIo } from './run.js';

/** `gatehouse grants issue|revoke`. */
export async function grantsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'issue': {
      const { values } = parseArgs({
        args,
        options: { client: { type: 'string' }, user: { type: 'string' }, scope: { type: 'string' } },
      });
      if (!values.client || values.user === undefined) throw new UsageError('grants issue needs --client and --user');
      const { client, user } = values;
      // The issuer is printed: a server with another one refuses these tokens (RFC 9068 §4 `iss`, `aud`).
      const issued = await withContext(config, async (context) => ({
        issuer: context.issuer,
        ...(await issueOperatorGrant(context, client, user, listOf(values.scope) ?? [])),
      }));
      io.out(JSON.stringify(issued, null, 2));
      return 0;
    }
    case 'revoke': {
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError('grants revoke takes one grant id');
      const id = positionals[0] as string;
      const found = await withStore(config, (_store, clock, audit) =>
        revokeGrantAsAdmin(audit, id, clock.now(), CLI_ACTOR),
      );
      if (!found) throw new OperatorInputError(`no grant '${id}'`);
      io.out(JSON.stringify({ grant_id: id, revoked: true, already_revoked: found.revokedAt !== null }));
      return 0;
    }
    default:
      throw unknownCommand('grants command', sub, ['issue', 'revoke']);
  }
}
