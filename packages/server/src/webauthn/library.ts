import type * as SimpleWebAuthn from '@simplewebauthn/server';

/**
 * `@simplewebauthn/server`, loaded on the first passkey ceremony rather than at start: with its
 * ASN.1, CBOR and COSE parsers it adds about 20 MB to a process, which a server whose users never
 * use passkeys (or a process answering only tokens) should not carry. Types are imported statically.
 */
let library: Promise<typeof SimpleWebAuthn> | undefined;

export function webauthnLibrary(): Promise<typeof SimpleWebAuthn> {
  library ??= import('@simplewebauthn/server');
  return library;
}
