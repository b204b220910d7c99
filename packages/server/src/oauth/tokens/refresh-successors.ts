import { createHmac } from 'node:crypto';
import type { Repository } from '../../store/repository.js';

const SECRET_NAME = 'refresh_successor_key';

/**
 * The successor of a rotated refresh token, for clients with a replay window: derived from the
 * token it replaces, `HMAC-SHA256(key, useCount "." token)`, under a key every process shares
 * (made by migration 0007). A replay of the rotated token inside the window can then be answered
 * with the byte-identical successor without the successor ever being stored: the store keeps only
 * its digest, as for every token. Without the key, a holder of the old token cannot compute the
 * new one; with the key but without the old token (a reader of the database), nobody can either.
 * The use count makes each rotation of a token with several uses a different successor.
 */
export class RefreshSuccessors {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  static async load(store: Pick<Repository, 'findServerSecret'>): Promise<RefreshSuccessors> {
    const secret = await store.findServerSecret(SECRET_NAME);
    if (secret === undefined) throw new Error(`the store has no ${SECRET_NAME}: run gatehouse migrate`);
    return new RefreshSuccessors(Buffer.from(secret, 'base64url'));
  }

  /** The successor of `token` at its `useCount`-th exchange: 256 bits, base64url, like every refresh token. */
  successorOf(token: string, useCount: number): string {
    return createHmac('sha256', this.#key).update(`${useCount}.${token}`, 'utf8').digest('base64url');
  }
}
