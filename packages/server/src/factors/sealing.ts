import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Second-factor secrets sealed at rest, like signing keys (oauth/keys/key-sealing.ts):
 * AES-256-GCM under a key derived (HKDF-SHA256) from KEY_ENCRYPTION_KEY when it is set, with the
 * user's subject and the factor's kind as associated data, so a sealed secret copied onto another
 * user's row does not open. Without KEY_ENCRYPTION_KEY they are sealed under `factor_sealing_key`,
 * a random secret migration 0016 stored in the database: no secret is ever stored in plaintext, but
 * a reader of the whole database (or a backup) can open them then. The sealed form names its key
 * (`kek`), so secrets sealed before KEY_ENCRYPTION_KEY was set still open after.
 */
export interface SealedSecret {
  readonly sealed: 'A256GCM';
  readonly kek: string;
  readonly iv: string;
  readonly data: string;
  readonly tag: string;
}

interface SealingKey {
  readonly id: string;
  readonly key: Buffer;
}

function sealingKey(secret: string, info: string): SealingKey {
  const key = Buffer.from(hkdfSync('sha256', secret, 'gatehouse', info, 32));
  return { key, id: createHash('sha256').update(key).digest('base64url').slice(0, 8) };
}

export class FactorSealing {
  readonly #current: SealingKey;
  readonly #keys: ReadonlyMap<string, SealingKey>;

  /** `storeSecret`: the database's `factor_sealing_key`; `keyEncryptionKey`: KEY_ENCRYPTION_KEY when set. */
  constructor(storeSecret: string, keyEncryptionKey: string | undefined) {
    const fallback = sealingKey(storeSecret, 'factor-secret-sealing v1 (store)');
    const operator =
      keyEncryptionKey === undefined ? undefined : sealingKey(keyEncryptionKey, 'factor-secret-sealing v1');
    this.#current = operator ?? fallback;
    this.#keys = new Map([fallback, ...(operator ? [operator] : [])].map((k) => [k.id, k]));
  }

  /** Whether new secrets are sealed under KEY_ENCRYPTION_KEY (rather than the database's key). */
  get underKeyEncryptionKey(): boolean {
    return this.#keys.size > 1;
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv).setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed: SealedSecret = {
      sealed: 'A256GCM',
      kek: this.#current.id,
      iv: iv.toString('base64url'),
      data: data.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
    return JSON.stringify(sealed);
  }

  /** The plaintext; throws when the sealed text was altered, sealed for another context, or under an unknown key. */
  open(text: string, context: string): string {
    const sealed = JSON.parse(text) as SealedSecret;
    const key = this.#keys.get(sealed.kek);
    if (sealed.sealed !== 'A256GCM' || key === undefined)
      throw new Error(`a second-factor secret was sealed under a key this server does not have (${sealed.kek})`);
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(sealed.iv, 'base64url'))
      .setAAD(Buffer.from(context))
      .setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
