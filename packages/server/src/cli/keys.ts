import type { ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { systemClock } from '../primitives/clock.js';
import { KeyEncryption } from '../oauth/keys/index.js';
import { CLI_ACTOR } from '../audit/audit.js';
import { describeKeys, retireSigningKey, rotateSigningKeys } from '../oauth/keys/index.js';
import { sealPlaintextKeys } from '../oauth/keys/index.js';
import type { SigningKeyRecord } from '../primitives/records.js';
import { parseCommand, unknownCommand, UsageError, type CommandDeclaration } from './declaration.js';
import { withStore } from './open-context.js';
import type { CliIo } from './run.js';

const LIST = { name: 'keys list', summary: 'signing keys and their status', options: {} } as const;
const ROTATE = {
  name: 'keys rotate',
  summary: 'add a key per algorithm (ES256, RS256): published now, signing in 10 minutes',
  options: { now: { type: 'boolean', help: 'signing at once (tokens signed by it fail where the key set is cached)' } },
} as const satisfies CommandDeclaration;
const SEAL = { name: 'keys seal', summary: 'seal stored private keys under KEY_ENCRYPTION_KEY', options: {} } as const;
const RETIRE = {
  name: 'keys retire',
  summary: 'stop publishing and accepting a key',
  positionals: ['KID'],
  options: {},
  notes: ['A KID that begins with a dash: keys retire -- KID.'],
} as const satisfies CommandDeclaration;

export const KEY_COMMANDS: readonly CommandDeclaration[] = [LIST, ROTATE, SEAL, RETIRE];

/**
 * `gatehouse keys list|rotate|retire|seal`: rotation without downtime. A rotated-in key is published
 * at once and signs KEY_PUBLISH_DELAY later; retire the old key once the tokens it signed have
 * expired. With KEY_ENCRYPTION_KEY set, new keys are sealed, and `seal` seals the older ones (as
 * `serve` does when it starts).
 */
export async function keysCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  const encryption =
    config.keyEncryptionKey === undefined ? undefined : KeyEncryption.fromSecret(config.keyEncryptionKey);
  switch (sub) {
    case 'list': {
      parseCommand(LIST, args);
      const keys = await withStore(config, (store) => store.listSigningKeys());
      io.out(JSON.stringify(describeKeys(keys, now()), null, 2));
      return 0;
    }
    case 'rotate': {
      const { values } = parseCommand(ROTATE, args);
      const rotated = await withStore(config, (_store, _clock, audit) =>
        rotateSigningKeys(audit, now(), { immediately: values.now === true, encryption }, CLI_ACTOR),
      );
      // The access tokens' key (ES256) as before; `keys` lists the key of each algorithm.
      const [key] = rotated as [SigningKeyRecord];
      io.out(
        JSON.stringify({
          kid: key.kid,
          published_at: iso(key.createdAt),
          signs_from: iso(key.activatesAt),
          keys: rotated.map((k) => ({ kid: k.kid, alg: k.alg })),
        }),
      );
      return 0;
    }
    case 'retire': {
      // A kid is base64url, so one in 64 begins with '-', which an option parser would take for an option.
      const kids = args[0] === '--' ? args.slice(1) : args;
      if (kids.length !== 1) throw new UsageError('keys retire takes one kid');
      const kid = kids[0] as string;
      await withStore(config, (_store, _clock, audit) => retireSigningKey(audit, kid, now(), CLI_ACTOR));
      io.out(JSON.stringify({ kid, retired: true }));
      return 0;
    }
    case 'seal': {
      parseCommand(SEAL, args);
      if (!encryption) throw new OperatorInputError('set KEY_ENCRYPTION_KEY to seal the signing keys under it');
      const sealed = await withStore(config, (store) => sealPlaintextKeys(store, encryption));
      io.out(JSON.stringify({ sealed }));
      return 0;
    }
    default:
      throw unknownCommand('keys command', sub, KEY_COMMANDS);
  }
}

const now = (): number => systemClock.now();
const iso = (t: number): string => new Date(t * 1000).toISOString();
