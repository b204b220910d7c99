import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TokenStoreError, isRecord } from '../errors.js';
import type { TokenStore, TokenStoreState } from '../token-store.js';
import { withFileLock, type FileLockOptions } from './file-lock.js';
import { loadTokenKey } from './token-key.js';

export interface FileTokenStoreOptions {
  /** The encrypted token file. */
  readonly path: string;
  /** The key file used when GATEHOUSE_TOKEN_KEY is not set; created 0600 when absent. Default: `<path>.key`. */
  readonly keyFile?: string;
  /** A 32-byte key to use instead of the environment or a key file. */
  readonly key?: Uint8Array;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The lock file `<path>.lock` that serialises refreshes between processes: when to take it over, how long to wait. */
  readonly lock?: FileLockOptions;
}

/** The file's envelope; the token state is only ever on disk inside `ciphertext`. */
interface Envelope {
  readonly version: 1;
  readonly alg: 'A256GCM';
  readonly iv: string;
  readonly ciphertext: string;
  readonly tag: string;
}

// Binds the ciphertext to this format and version: an envelope from another use of the key does not decrypt.
const AAD = Buffer.from('gatehouse-client/token-store/v1');

/**
 * A TokenStore in one file, encrypted with AES-256-GCM (a random 12-byte IV per write, the
 * 16-byte tag checked on read), mode 0600 in a 0700 folder, replaced atomically (temporary file,
 * fsync, rename) so that a crash never leaves half a file. Processes sharing the file take turns
 * through the lock file `<path>.lock` (`withExclusiveLock`), so that one refresh token is presented
 * once among them all.
 */
export class FileTokenStore implements TokenStore {
  /** Encrypted and 0600: a TokenManager with `dpop: true` keeps its DPoP private key here, with the tokens. */
  readonly holdsPrivateKeys = true;
  readonly path: string;
  readonly #key: Buffer;
  readonly #lock: FileLockOptions;

  private constructor(path: string, key: Buffer, lock: FileLockOptions) {
    this.path = path;
    this.#key = key;
    this.#lock = lock;
  }

  /** Resolves the key (option, GATEHOUSE_TOKEN_KEY, or the key file) and returns the store. */
  static async open(options: FileTokenStoreOptions): Promise<FileTokenStore> {
    const key =
      options.key !== undefined
        ? Buffer.from(options.key)
        : await loadTokenKey(options.keyFile ?? `${options.path}.key`, options.env);
    if (key.length !== 32) throw new TokenStoreError('the token key must be 32 bytes (AES-256)');
    return new FileTokenStore(options.path, key, options.lock ?? {});
  }

  /** Runs `fn` holding `<path>.lock`, exclusive between processes (and between stores of one process). */
  withExclusiveLock<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(`${this.path}.lock`, fn, this.#lock);
  }

  async read(): Promise<TokenStoreState> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    return this.#decrypt(text);
  }

  async write(state: TokenStoreState): Promise<void> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv).setAAD(AAD);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
    const envelope: Envelope = {
      version: 1,
      alg: 'A256GCM',
      iv: iv.toString('base64url'),
      ciphertext: ciphertext.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
    await writeFileAtomically(this.path, `${JSON.stringify(envelope)}\n`);
  }

  /** Removes the token file (the key stays, for the next login). */
  async delete(): Promise<void> {
    await rm(this.path, { force: true });
  }

  #decrypt(text: string): TokenStoreState {
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      throw new TokenStoreError(`${this.path} is not a Gatehouse token file`);
    }
    if (
      !isRecord(envelope) ||
      envelope.version !== 1 ||
      envelope.alg !== 'A256GCM' ||
      typeof envelope.iv !== 'string' ||
      typeof envelope.ciphertext !== 'string' ||
      typeof envelope.tag !== 'string'
    ) {
      throw new TokenStoreError(`${this.path} is not a Gatehouse token file (version 1)`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(envelope.iv, 'base64url')).setAAD(AAD);
      decipher.setAuthTag(Buffer.from(envelope.tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(envelope.ciphertext, 'base64url')), decipher.final()]);
      const state: unknown = JSON.parse(plain.toString('utf8'));
      if (!isRecord(state)) throw new TypeError('not an object');
      return state;
    } catch (error) {
      throw new TokenStoreError(`${this.path} cannot be decrypted with this key, or was altered`, { cause: error });
    }
  }
}

/** Writes `path` as a new 0600 file beside it, flushed, then renamed over it (POSIX rename is atomic). */
export async function writeFileAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
