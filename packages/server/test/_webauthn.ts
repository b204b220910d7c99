import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for the HTTP and unit tests (the browser tests use Chromium's
 * virtual authenticator): an ES256 key, `none` attestation, and the authenticator data, client
 * data and signature of WebAuthn §6.1, §5.8.1 and §6.3.3 built by hand, so that each field a
 * refusal is about can be set wrong on purpose.
 */

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

/** CBOR (RFC 8949) of the few shapes an attestation object needs: text, bytes, small ints, maps. */
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}
type Cbor = string | Buffer | number | Map<Cbor, Cbor>;
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([cborHead(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

export interface AuthenticatorFlags {
  /** UV (§6.1): the user was verified. */
  readonly userVerified?: boolean;
  /** BE: the credential may be backed up. */
  readonly backupEligible?: boolean;
  /** BS: it is backed up. */
  readonly backedUp?: boolean;
}

/** What a test may set wrong in one response. */
export interface ResponseOverrides extends AuthenticatorFlags {
  readonly origin?: string;
  readonly challenge?: string;
  readonly counter?: number;
  readonly userHandle?: string | null;
  readonly rpId?: string;
  readonly type?: string;
}

interface CeremonyOptions {
  readonly challenge: string;
  readonly user?: { readonly id: string };
}

export class SoftAuthenticator {
  readonly credentialId = b64url(randomBytes(16));
  counter = 0;
  userHandle: string | undefined;
  readonly #privateKey: KeyObject;
  readonly #coseKey: Buffer;

  readonly rpId: string;
  readonly origin: string;
  readonly flags: AuthenticatorFlags;

  constructor(rpId: string, origin: string, flags: AuthenticatorFlags = { userVerified: true }) {
    this.rpId = rpId;
    this.origin = origin;
    this.flags = flags;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key EC2 P-256 ES256 (RFC 9053 §7.1.1): kty 2, alg -7, crv 1, x, y.
    this.#coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  }

  #authenticatorData(o: ResponseOverrides, attested: boolean): Buffer {
    const f = { ...this.flags, ...o };
    const flags =
      0x01 |
      (f.userVerified ? 0x04 : 0) |
      (f.backupEligible ? 0x08 : 0) |
      (f.backedUp ? 0x10 : 0) |
      (attested ? 0x40 : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(o.counter ?? this.counter);
    const parts = [sha256(o.rpId ?? this.rpId), Buffer.from([flags]), counter];
    if (attested) {
      const id = Buffer.from(this.credentialId, 'base64url');
      const length = Buffer.from([id.length >> 8, id.length & 0xff]);
      parts.push(Buffer.alloc(16), length, id, this.#coseKey);
    }
    return Buffer.concat(parts);
  }

  #clientData(type: string, options: CeremonyOptions, o: ResponseOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: o.type ?? type,
        challenge: o.challenge ?? options.challenge,
        origin: o.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** The answer to `navigator.credentials.create()` (§5.1.3), as `PublicKeyCredential.toJSON()` gives it. */
  create(options: CeremonyOptions, overrides: ResponseOverrides = {}): string {
    this.userHandle = options.user?.id;
    const clientData = this.#clientData('webauthn.create', options, overrides);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.#authenticatorData(overrides, true)],
      ]),
    );
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    });
  }

  /** The answer to `navigator.credentials.get()` (§5.1.4); the counter goes up by one unless set. */
  get(options: CeremonyOptions, overrides: ResponseOverrides = {}): string {
    if (overrides.counter === undefined) this.counter += 1;
    const clientData = this.#clientData('webauthn.get', options, overrides);
    const authenticatorData = this.#authenticatorData(overrides, false);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientData)]), this.#privateKey);
    const userHandle = overrides.userHandle === undefined ? this.userHandle : (overrides.userHandle ?? undefined);
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(userHandle === undefined ? {} : { userHandle }),
      },
    });
  }
}

/** The WebAuthn options a page rendered in its passkey form's `data-options` (escaped as every value). */
export function ceremonyOptionsIn(html: string): CeremonyOptions {
  const match = /data-options="([^"]*)"/.exec(html);
  if (!match) throw new Error('the page has no passkey form');
  return JSON.parse((match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))));
}
