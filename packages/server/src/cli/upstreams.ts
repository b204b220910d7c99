import type { ServerConfig } from '../config.js';
import { CLI_ACTOR } from '../audit/audit.js';
import { applyUpstreams, readUpstreamsFile, removeUpstream } from '../federation/administration.js';
import { describeProvider, listProviders } from '../federation/providers.js';
import { isSealed, KeyEncryption } from '../oauth/keys/index.js';
import { parseCommand, unknownCommand, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

const APPLY = {
  name: 'upstreams apply',
  summary: 'add or replace the upstream OpenID Providers a JSON file declares (docs/federation.md)',
  positionals: ['FILE'],
  options: {},
} as const satisfies CommandDeclaration;
const LIST = { name: 'upstreams list', summary: 'every upstream provider (never its secret)', options: {} } as const;
const REMOVE = {
  name: 'upstreams remove',
  summary: 'remove an upstream provider (its users keep their accounts)',
  positionals: ['ID'],
  options: {},
} as const satisfies CommandDeclaration;

export const UPSTREAM_COMMANDS: readonly CommandDeclaration[] = [APPLY, LIST, REMOVE];

/** `gatehouse upstreams apply|list|remove`: federation's providers, secrets sealed under KEY_ENCRYPTION_KEY. */
export async function upstreamsCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const encryption =
    config.keyEncryptionKey === undefined ? undefined : KeyEncryption.fromSecret(config.keyEncryptionKey);
  switch (sub) {
    case 'apply': {
      const file = parseCommand(APPLY, args).positionals[0] as string;
      const inputs = readUpstreamsFile(file, process.env);
      const applied = await withStore(config, (store, clock, audit) =>
        applyUpstreams(store, audit, inputs, clock.now(), encryption, CLI_ACTOR),
      );
      io.out(JSON.stringify(applied, null, 2));
      return 0;
    }
    case 'list': {
      parseCommand(LIST, args);
      const listed = await withStore(config, async (store) => {
        const rows = await store.listUpstreamProviders();
        const sealed = new Set(rows.filter((r) => isSealed(JSON.parse(r.credential))).map((r) => r.id));
        return (await listProviders(store, encryption)).map((p) => describeProvider(p, sealed.has(p.id)));
      });
      io.out(JSON.stringify(listed, null, 2));
      return 0;
    }
    case 'remove': {
      const id = parseCommand(REMOVE, args).positionals[0] as string;
      await withStore(config, (store, clock, audit) => removeUpstream(store, audit, id, clock.now(), CLI_ACTOR));
      io.out(JSON.stringify({ id, removed: true }));
      return 0;
    }
    default:
      throw unknownCommand('upstreams command', sub, UPSTREAM_COMMANDS);
  }
}
