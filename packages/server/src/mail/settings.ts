import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemError } from '@gatehouse/contract';
import addressparser from 'nodemailer/lib/addressparser';
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './delivery-policy.js';
import { checkedAddress } from './message.js';

/** Where mail goes: an SMTP server (SMTP_URL), or `.eml` files (the embedded default). */
export type TransportSettings =
  | {
      readonly kind: 'smtp';
      readonly host: string;
      readonly port: number;
      /** `smtps://`: TLS from the first byte. */
      readonly secure: boolean;
      /** `smtp://`: STARTTLS `required` (the default), `optional` (used when offered) or `never`. */
      readonly starttls: 'required' | 'optional' | 'never';
      readonly user?: string;
      readonly pass?: string;
      /** SMTP_CA_FILE: CAs trusted for the server's certificate instead of Node's. */
      readonly ca?: string;
      /** The URL without its credentials, and how it is secured: said at start. */
      readonly description: string;
    }
  | { readonly kind: 'files'; readonly dir: string };

export interface MailSettings {
  readonly transport: TransportSettings;
  /** MAIL_FROM: the From of every message. */
  readonly from: string;
  readonly policy: DeliveryPolicy;
}

const STARTTLS_MODES = ['required', 'optional', 'never'] as const;

/**
 * SMTP_URL, SMTP_CA_FILE, MAIL_FROM, MAIL_OUTBOX_DIR and the delivery policy's MAIL_* variables. A
 * wrong value stops the server at start, naming the variable; SMTP_URL's password is never repeated.
 */
export function mailSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  issuer: string,
  root: string,
  product = 'Gatehouse',
): MailSettings {
  const ca = env.SMTP_CA_FILE ? readFileSync(env.SMTP_CA_FILE, 'utf8') : undefined;
  return {
    transport: env.SMTP_URL
      ? smtpSettingsFrom(env.SMTP_URL, ca)
      : { kind: 'files', dir: env.MAIL_OUTBOX_DIR || join(root, 'data', 'outbox') },
    from: mailFromOf(env.MAIL_FROM, issuer, product),
    policy: deliveryPolicyFrom(env),
  };
}

/** `smtp://user:pass@host:587[?starttls=required|optional|never]` or `smtps://user:pass@host:465`. */
export function smtpSettingsFrom(value: string, ca?: string): TransportSettings {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const secure = url?.protocol === 'smtps:';
  if (url === undefined || !(secure || url.protocol === 'smtp:') || url.hostname === '')
    throw new Error('SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…');
  if (!['', '/'].includes(url.pathname) || url.hash !== '') throw new Error('SMTP_URL takes no path and no fragment');
  const unknown = [...url.searchParams.keys()].filter((name) => secure || name !== 'starttls');
  if (unknown.length > 0)
    throw new Error(`SMTP_URL takes no parameter ${unknown[0]}${secure ? '' : ' (only starttls)'}`);
  const given = url.searchParams.get('starttls') ?? 'required';
  const starttls = STARTTLS_MODES.find((mode) => mode === given);
  if (starttls === undefined) throw new Error(`SMTP_URL's starttls is required, optional or never, got ${given}`);
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const security = secure ? 'TLS' : `STARTTLS ${starttls}`;
  return {
    kind: 'smtp',
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    secure,
    starttls: secure ? 'required' : starttls,
    ...(url.username === '' ? {} : { user: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { pass: decodeURIComponent(url.password) }),
    ...(ca === undefined ? {} : { ca }),
    description: `SMTP ${url.protocol}//${url.host} (${security}${url.username === '' ? '' : ', authenticated'})`,
  };
}

/**
 * MAIL_FROM, one mailbox with or without a display name; by default the product's name (BRAND_NAME)
 * and no-reply at the issuer's host, the name quoted when it holds more than RFC 5322 §3.2.3 atoms.
 */
function mailFromOf(value: string | undefined, issuer: string, product: string): string {
  if (value === undefined || value === '') {
    const name = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/.test(product)
      ? product
      : `"${product.replace(/["\\]/g, '\\$&')}"`;
    return `${name} <no-reply@${mailHostOf(issuer)}>`;
  }
  const parsed = addressparser(value);
  const [only] = parsed;
  try {
    if (parsed.length !== 1 || only === undefined || only.group !== undefined) throw new Error('not one mailbox');
    checkedAddress(only.address);
  } catch (error) {
    const why = error instanceof ProblemError ? error.detail : 'it is not one mailbox';
    throw new Error(`MAIL_FROM must be one address, as "Name <no-reply@example.com>": ${why}`, { cause: error });
  }
  return value;
}

/** The host of the issuer as a mail domain (Message-IDs, the default From); `localhost` for an IP address. */
export function mailHostOf(issuer: string): string {
  const host = new URL(issuer).hostname;
  return /^[\d.]+$/.test(host) || host.startsWith('[') ? 'localhost' : host;
}

const POLICY_VARIABLES = {
  pollMs: ['MAIL_POLL_MS', 100, 3_600_000],
  leaseMs: ['MAIL_LEASE_MS', 1_000, 3_600_000],
  maxAttempts: ['MAIL_MAX_ATTEMPTS', 1, 100],
  retryMs: ['MAIL_RETRY_MS', 10, 3_600_000],
} as const;

function deliveryPolicyFrom(env: NodeJS.ProcessEnv): DeliveryPolicy {
  const policy: Record<string, number> = { ...DEFAULT_DELIVERY_POLICY };
  for (const [key, [variable, min, max]] of Object.entries(POLICY_VARIABLES)) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max)
      throw new Error(`${variable} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    policy[key] = Number(value);
  }
  const result = policy as unknown as DeliveryPolicy;
  // A send is begun only with this much of its claim left; a short lease (tests) shortens it.
  return { ...result, sendBudgetMs: Math.min(DEFAULT_DELIVERY_POLICY.sendBudgetMs, result.leaseMs / 2) };
}
