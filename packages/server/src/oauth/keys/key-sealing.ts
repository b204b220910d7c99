import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { SealedPrivateKey } from '../../primitives/records.js';

/**
 * Signing keys sealed at rest: with KEY_ENCRYPTION_KEY set, a private key is stored as AES-256-GCM
 * ciphertext under a key derived from it (HKDF-SHA256), with the key's `kid` as associated data, so
 * a sealed key copied onto another row does not open. A reader of the database or of a backup
 * without the encryption key cannot sign tokens.
 */
/** The shortest KEY_ENCRYPTION_KEY accepted: 32 characters (e.g. `openssl rand -base64 32` gives 44). */
const MIN_KEY_ENCRYPTION_KEY_LENGTH = 32;

export function isSealed(value: unknown): value is SealedPrivateKey {
  return typeof value === 'object' && value !== null && (value as { sealed?: unknown }).sealed === 'A256GCM';
}

export class KeyEncryption {
  readonly #key: Buffer;
  /** Names the encryption key in what it seals, so a wrong key is reported as such. */
  readonly id: string;

  private constructor(key: Buffer) {
    this.#key = key;
    this.id = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  /** From the operator's secret (KEY_ENCRYPTION_KEY). */
  static fromSecret(secret: string): KeyEncryption {
    if (secret.length < MIN_KEY_ENCRYPTION_KEY_LENGTH) {
      throw new Error(
        `KEY_ENCRYPTION_KEY must be at least ${MIN_KEY_ENCRYPTION_KEY_LENGTH} characters (try: openssl rand -base64 32)`,
      );
    }
    return new KeyEncryption(Buffer.from(hkdfSync('sha256', secret, 'gatehouse', 'signing-key-sealing v1', 32)));
  }

  seal(privateJwk: JsonWebKey, kid: string): SealedPrivateKey {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv).setAAD(Buffer.from(kid));
    const data = Buffer.concat([cipher.update(JSON.stringify(privateJwk), 'utf8'), cipher.final()]);
    return {
      sealed: 'A256GCM',
      kek: this.id,
      iv: iv.toString('base64url'),
      data: data.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
  }

  open(sealed: SealedPrivateKey, kid: string): JsonWebKey {
    if (sealed.kek !== this.id) {
      throw new Error(
        `signing key ${kid} was sealed with another KEY_ENCRYPTION_KEY (${sealed.kek}, this one is ${this.id})`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(sealed.iv, 'base64url'))
        .setAAD(Buffer.from(kid))
        .setAuthTag(Buffer.from(sealed.tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as JsonWebKey;
    } catch (error) {
      throw new Error(`signing key ${kid} does not open: its sealed form was altered or belongs to another key`, {
        cause: error,
      });
    }
  }
}

/** The private key of a stored signing key, opened when sealed. */
export function privateJwkOf(
  stored: JsonWebKey | SealedPrivateKey,
  kid: string,
  encryption: KeyEncryption | undefined,
): JsonWebKey {
  if (!isSealed(stored)) return stored;
  if (!encryption)
    throw new Error(`signing key ${kid} is sealed: set KEY_ENCRYPTION_KEY to the key it was sealed with`);
  return encryption.open(stored, kid);
}
