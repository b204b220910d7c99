import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit.js';
import { revokeGrantAsAdmin } from '../oauth/grant-administration.js';
import type { ServerConfig } from '../config.js';
import { issueOperatorGrant } from '../oauth/operator-grants.js';
import { withContext } from './open-context.js';
import { listOf, UsageError, type CliIo } from './run.js';

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
      const response = await withContext(config, (context) =>
        issueOperatorGrant(context, client, user, listOf(values.scope) ?? []),
      );
      io.out(JSON.stringify(response, null, 2));
      return 0;
    }
    case 'revoke': {
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError('grants revoke takes one grant id');
      const id = positionals[0] as string;
      const found = await withContext(config, ({ store, clock }) =>
        revokeGrantAsAdmin(store, id, clock.now(), CLI_ACTOR),
      );
      if (!found) {
        io.err(JSON.stringify({ error: 'refused', message: `no grant '${id}'` }));
        return 1;
      }
      io.out(JSON.stringify({ grant_id: id, revoked: true, already_revoked: found.revokedAt !== null }));
      return 0;
    }
    default:
      throw new UsageError(`unknown grants command '${sub ?? ''}'`);
  }
}
