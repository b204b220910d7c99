/**
 * The parts of a credential response read before its verification: which challenge it answers, from
 * which origin, for which credential. Untrusted input: anything malformed is `undefined`.
 */
export interface ResponseSummary {
  /** The credential id, base64url. */
  readonly id: string;
  /** `clientDataJSON.challenge` (WebAuthn §5.8.1), base64url. */
  readonly challenge: string;
  /** `clientDataJSON.origin`. */
  readonly origin: string;
  /** `clientDataJSON.type`: `webauthn.create` or `webauthn.get`. */
  readonly type: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** A response is a few kilobytes; a form field much larger is not one. */
export const RESPONSE_MAX_LENGTH = 64 * 1024;

/** The response JSON a browser sent (`PublicKeyCredential.toJSON()`), summarized; undefined when malformed. */
export function summarizeResponse(text: string | undefined): { json: unknown; summary: ResponseSummary } | undefined {
  if (text === undefined || text.length > RESPONSE_MAX_LENGTH) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { id, rawId, type, response } = json as Record<string, unknown>;
  if (typeof id !== 'string' || !BASE64URL.test(id) || rawId !== id || type !== 'public-key') return undefined;
  if (typeof response !== 'object' || response === null) return undefined;
  const clientDataJSON = (response as Record<string, unknown>).clientDataJSON;
  if (typeof clientDataJSON !== 'string' || !BASE64URL.test(clientDataJSON)) return undefined;
  let clientData: unknown;
  try {
    clientData = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof clientData !== 'object' || clientData === null) return undefined;
  const c = clientData as Record<string, unknown>;
  if (typeof c.challenge !== 'string' || typeof c.origin !== 'string' || typeof c.type !== 'string') return undefined;
  return { json, summary: { id, challenge: c.challenge, origin: c.origin, type: c.type } };
}
