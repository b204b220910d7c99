import { parseArgs } from 'node:util';
import { storeAudit } from '../audit/audit.js';
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
      const found = await withStore(config, async (store, clock) => {
        const now = clock.now();
        return store.transaction(async (tx) => {
          const grant = await tx.findGrant(id);
          if (grant && (await tx.revokeGrant(id, 'revoked_by_admin', now))) {
            await storeAudit(tx, {
              event: 'grant_revoked',
              at: now,
              clientId: grant.clientId,
              subject: grant.subject,
              grantId: id,
              reason: 'revoked_by_admin',
            });
          }
          return grant;
        });
      });
      if (!found) throw new OperatorInputError(`no grant '${id}'`);
      io.out(JSON.stringify({ grant_id: id, revoked: true, already_revoked: found.revokedAt !== null }));
      return 0;
    }
    default:
      throw unknownCommand('grants command', sub, ['issue', 'revoke']);
  }
}
