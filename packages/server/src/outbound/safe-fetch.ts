/**
 * The one way the server fetches a URL a client named (a client ID metadata document, a `jwks_uri`):
 * an outbound GET that cannot be turned against the server's own network (server-side request
 * forgery, RFC 9700 §4.20 / OWASP SSRF).
 *
 * Guarantees, each checked by test/safe-fetch.test.ts:
 * - https only, unless the caller allows plain http to a loopback host (primitives/loopback.ts, the
 *   one loopback rule: never http to any other host), whose address must then be allowed too;
 * - the host name is resolved once, every address it resolves to must be public (not private,
 *   loopback, link-local, unique-local, CGNAT, multicast, unspecified, reserved, nor an IPv4-mapped /
 *   NAT64 / 6to4 / Teredo form of those) unless it lies in a range the operator allows, and the
 *   connection is pinned to the checked address: the socket's own lookup returns that address, so a
 *   second DNS answer (DNS rebinding) is never asked for. TLS still verifies the certificate against
 *   the host name (SNI and subject alternative name);
 * - redirects are not followed (a 3xx is refused: its target would need the same checks, and a
 *   document that moved is not the document the client named);
 * - the body is read up to a byte limit, enforced while streaming (a `Content-Length` over the limit
 *   is refused before reading); the connection is destroyed the moment the limit is passed;
 * - one total time limit covers resolution, connection, TLS, headers and body.
 *
 * It knows nothing of OAuth: callers map `SafeFetchError.reason` to their own catalog errors.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isHttpsOrLoopbackHttp, LOOPBACK_HTTP_RULE } from '../primitives/loopback.js';

/** One resolved address, as `dns.lookup` with `all: true` gives it. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests can answer 10.0.0.1. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export interface SafeFetchOptions {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Total time for the whole fetch, in milliseconds. */
  readonly timeoutMs: number;
  /** Allow plain http to a loopback host (off by default); the address check below still applies. */
  readonly allowLoopbackHttp?: boolean;
  /** Non-public ranges (CIDR, e.g. `10.1.0.0/16`, `::1/128`) the operator allows. */
  readonly allowAddresses?: readonly string[];
  /** Trusted certificate authorities (PEM) replacing the default ones, e.g. a test's own CA. */
  readonly ca?: string | readonly string[];
  readonly resolve?: Resolver;
  readonly accept?: string;
}

export type SafeFetchFailure =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'resolution_failed'
  | 'address_not_allowed'
  | 'redirect_not_followed'
  | 'too_large'
  | 'timeout'
  | 'connection_failed';

export class SafeFetchError extends Error {
  readonly reason: SafeFetchFailure;
  constructor(reason: SafeFetchFailure, message: string) {
    super(message);
    this.name = 'SafeFetchError';
    this.reason = reason;
  }
}

export interface SafeFetchResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The address the connection was pinned to. */
  readonly address: string;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseRanges(cidrs: readonly string[]): Range[] {
  return cidrs.map((cidr) =>
    cidr.includes('/') ? ipaddr.parseCIDR(cidr) : ipaddr.parseCIDR(`${cidr}/${cidr.includes(':') ? 128 : 32}`),
  );
}

/**
 * Whether an address may be connected to: a public unicast address, or one in an allowed range.
 * An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
 */
export function isAllowedAddress(address: string, allowAddresses: readonly string[] = []): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const allowed = parseRanges(allowAddresses).some(
    ([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits),
  );
  return allowed || parsed.range() === 'unicast';
}

function parseUrl(input: string, allowLoopbackHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError('invalid_url', 'the URL is not a valid absolute URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('invalid_url', 'the URL carries credentials');
  }
  if (url.protocol !== 'https:' && !(allowLoopbackHttp && isHttpsOrLoopbackHttp(url))) {
    const rule = allowLoopbackHttp ? ` (${LOOPBACK_HTTP_RULE})` : '';
    throw new SafeFetchError('scheme_not_allowed', `the URL scheme ${url.protocol} is not allowed${rule}`);
  }
  return url;
}

/** Resolves once and checks every address; returns the one to pin the connection to. */
async function checkedAddress(hostname: string, options: SafeFetchOptions): Promise<ResolvedAddress> {
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let addresses: readonly ResolvedAddress[];
  if (ipaddr.isValid(literal)) {
    addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(literal);
    } catch {
      throw new SafeFetchError('resolution_failed', `the host ${literal} could not be resolved`);
    }
    if (addresses.length === 0) {
      throw new SafeFetchError('resolution_failed', `the host ${literal} has no address`);
    }
  }
  // Every address must pass: a name that resolves to one public and one private address would
  // otherwise let the caller pick its target by retrying.
  const refused = addresses.find((a) => !isAllowedAddress(a.address, options.allowAddresses));
  if (refused !== undefined) {
    throw new SafeFetchError('address_not_allowed', `the host ${literal} resolves to a non-public address`);
  }
  return addresses[0] as ResolvedAddress;
}

/** A lookup that answers the already-checked address and nothing else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all === true) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

/** GET `input` under the guarantees above. */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeFetchResponse> {
  const url = parseUrl(input, options.allowLoopbackHttp === true);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const pinned = await raceAbort(checkedAddress(url.hostname, options), controller.signal);
    return await get(url, pinned, options, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutError(): SafeFetchError {
  return new SafeFetchError('timeout', 'the fetch did not finish within its time limit');
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(timeoutError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(timeoutError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function get(
  url: URL,
  pinned: ResolvedAddress,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<SafeFetchResponse> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(pinned),
      headers: { accept: options.accept ?? 'application/json', 'accept-encoding': 'identity' },
      ...(url.protocol === 'https:' && options.ca !== undefined ? { ca: options.ca as string | string[] } : {}),
      signal,
    });
    let settled = false;
    const fail = (error: SafeFetchError): void => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(error);
    };
    request.on('error', (error) => {
      fail(
        signal.aborted ? timeoutError() : new SafeFetchError('connection_failed', `the fetch failed: ${error.message}`),
      );
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        fail(new SafeFetchError('redirect_not_followed', `the server answered ${status}; redirects are not followed`));
        return;
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        fail(new SafeFetchError('too_large', `the response is larger than ${options.maxBytes} bytes`));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxBytes) {
          fail(new SafeFetchError('too_large', `the response is larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status, headers: response.headers, body: Buffer.concat(chunks), address: pinned.address });
      });
      response.on('error', () => {
        fail(signal.aborted ? timeoutError() : new SafeFetchError('connection_failed', 'the response was cut off'));
      });
    });
    request.end();
  });
}
