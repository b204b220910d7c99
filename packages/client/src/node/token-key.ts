import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { TokenStoreError } from '../errors.js';

/** The environment variable holding the token-file key: 32 bytes, base64. */
export const TOKEN_KEY_ENV = 'GATEHOUSE_TOKEN_KEY';
const KEY_BYTES = 32;

/**
 * The AES-256 key of the token file: from GATEHOUSE_TOKEN_KEY when set, else from `keyFile`,
 * which is created (mode 0600, 32 random bytes, base64) when it does not exist. A key file that
 * others may read is refused, as ssh refuses such private keys.
 */
export async function loadTokenKey(
  keyFile: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Buffer> {
  const fromEnv = env[TOKEN_KEY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return decodeKey(fromEnv, TOKEN_KEY_ENV);
  try {
    return await readKeyFile(keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    const handle = await open(keyFile, 'wx', 0o600);
    try {
      await handle.writeFile(`${key.toString('base64')}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return key;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(keyFile);
    throw error;
  }
}

async function readKeyFile(keyFile: string): Promise<Buffer> {
  const info = await stat(keyFile);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    throw new TokenStoreError(
      `the key file ${keyFile} may be read by others (mode ${(info.mode & 0o777).toString(8)}); run: chmod 600 ${keyFile}`,
    );
  }
  return decodeKey(await readFile(keyFile, 'utf8'), keyFile);
}

function decodeKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new TokenStoreError(
      `${source} must hold a ${KEY_BYTES}-byte key in base64 (e.g. from: openssl rand -base64 32)`,
    );
  }
  return key;
}
