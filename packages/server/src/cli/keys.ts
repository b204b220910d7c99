import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { systemClock } from '../primitives/clock.js';
import { isSealed, KeyEncryption } from '../oauth/key-sealing.js';
import {
  activationOfNextKey,
  chooseSigningKey,
  generateSigningKey,
  KEY_PUBLISH_DELAY,
  sealPlaintextKeys,
  SIGNING_ALGS,
} from '../oauth/keys.js';
import type { SigningKeyRecord } from '../primitives/records.js';
import { withStore } from './open-context.js';
import { unknownCommand, UsageError, type CliIo } from './run.js';

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
      parseArgs({ args, options: {} });
      const keys = await withStore(config, (store) => store.listSigningKeys());
      io.out(JSON.stringify(describeKeys(keys, now()), null, 2));
      return 0;
    }
    case 'rotate': {
      const { values } = parseArgs({ args, options: { now: { type: 'boolean' } } });
      // One new key per algorithm (ES256 and RS256), so a rotation covers access and ID tokens alike.
      const rotated = await withStore(config, async (store) => {
        const existing = (await store.listSigningKeys()).filter((k) => k.retiredAt === null);
        // A store whose keys are sealed gets no plaintext key beside them.
        if (!encryption && existing.some((k) => isSealed(k.privateJwk)))
          throw new OperatorInputError('the stored keys are sealed: set KEY_ENCRYPTION_KEY to seal the new keys too');
        const activatesAt = activationOfNextKey(existing, now(), values.now ? 0 : KEY_PUBLISH_DELAY);
        const keys = SIGNING_ALGS.map((alg) => generateSigningKey(now(), activatesAt, encryption, alg));
        for (const key of keys) await store.insertSigningKey(key);
        return keys;
      });
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
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError('keys retire takes one kid');
      const kid = positionals[0] as string;
      await withStore(config, async (store) => {
        const keys = (await store.listSigningKeys()).filter((k) => k.retiredAt === null);
        const retiring = keys.find((k) => k.kid === kid);
        if (!retiring) throw new OperatorInputError(`no active key '${kid}'`);
        // Some other key of its algorithm must be able to sign at once, or the servers would have none.
        const successor = chooseSigningKey(
          keys.filter((k) => k.kid !== kid),
          now(),
          retiring.alg,
        );
        if (!successor || successor.activatesAt > now())
          throw new OperatorInputError(
            `no other key signs yet; run gatehouse keys rotate and wait until it signs (or use --now) before retiring '${kid}'`,
          );
        await store.retireSigningKey(kid, now());
      });
      io.out(JSON.stringify({ kid, retired: true }));
      return 0;
    }
    case 'seal': {
      parseArgs({ args, options: {} });
      if (!encryption) throw new OperatorInputError('set KEY_ENCRYPTION_KEY to seal the signing keys under it');
      const sealed = await withStore(config, (store) => sealPlaintextKeys(store, encryption));
      io.out(JSON.stringify({ sealed }));
      return 0;
    }
    default:
      throw unknownCommand('keys command', sub, ['list', 'rotate', 'retire', 'seal']);
  }
}

function describeKeys(keys: readonly SigningKeyRecord[], at: number): Record<string, unknown>[] {
  const live = keys.filter((k) => k.retiredAt === null);
  const signing = new Set(SIGNING_ALGS.map((alg) => chooseSigningKey(live, at, alg)?.kid));
  return keys.map((k) => ({
    kid: k.kid,
    alg: k.alg,
    published_at: iso(k.createdAt),
    signs_from: iso(k.activatesAt),
    sealed: isSealed(k.privateJwk),
    retired_at: k.retiredAt === null ? null : iso(k.retiredAt),
    status:
      k.retiredAt !== null
        ? 'retired'
        : signing.has(k.kid)
          ? 'signing'
          : k.activatesAt > at
            ? 'published'
            : 'verifying',
  }));
}

const now = (): number => systemClock.now();
const iso = (t: number): string => new Date(t * 1000).toISOString();
