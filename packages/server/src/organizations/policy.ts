import { OperatorInputError } from '../primitives/operator-input-error.js';

/** The ways of signing in an organization may allow (`sign_in_methods`). */
export const SIGN_IN_METHODS = ['password', 'passkey', 'federation'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/**
 * An organization's sign-in rules, applied when a person signs in for it (`organization` at
 * /authorize, or chosen on the chooser page). Stored and answered as this JSON.
 */
export interface OrganizationPolicy {
  /** `required`: a sign-in for the organization passes a second factor (OTP or passkey) first. */
  readonly second_factor: 'required' | 'optional';
  /** The methods a sign-in for the organization may have used; every one when all are listed. */
  readonly sign_in_methods: readonly SignInMethod[];
  /** The upstream provider (federation) that home-realm discovery sends the organization's addresses to. */
  readonly upstream: string | null;
  /** The organization role of a member made at sign-in by a verified e-mail domain; none when null. */
  readonly default_role: string | null;
}

export const DEFAULT_POLICY: OrganizationPolicy = {
  second_factor: 'optional',
  sign_in_methods: [...SIGN_IN_METHODS],
  upstream: null,
  default_role: null,
};

/** The stored policy, with the defaults for what it lacks. */
export function parsePolicy(json: string): OrganizationPolicy {
  return { ...DEFAULT_POLICY, ...(JSON.parse(json) as Partial<OrganizationPolicy>) };
}

/** A change to a policy as given by an operator: only the fields named change. */
export interface PolicyChange {
  readonly second_factor?: string | undefined;
  readonly sign_in_methods?: readonly string[] | undefined;
  readonly upstream?: string | null | undefined;
  readonly default_role?: string | null | undefined;
}

/** `current` with `change` applied, checked; `roles` are the organization's role names. */
export function changedPolicy(
  current: OrganizationPolicy,
  change: PolicyChange,
  roles: readonly string[],
): OrganizationPolicy {
  const secondFactor = change.second_factor ?? current.second_factor;
  if (secondFactor !== 'required' && secondFactor !== 'optional')
    throw new OperatorInputError(`second_factor: '${secondFactor}' is neither 'required' nor 'optional'`);
  const methods = change.sign_in_methods ?? current.sign_in_methods;
  for (const method of methods)
    if (!(SIGN_IN_METHODS as readonly string[]).includes(method))
      throw new OperatorInputError(`sign_in_methods: '${method}' is not one of ${SIGN_IN_METHODS.join(', ')}`);
  if (methods.length === 0) throw new OperatorInputError('sign_in_methods: at least one method is allowed');
  const defaultRole = change.default_role === undefined ? current.default_role : change.default_role;
  if (defaultRole !== null && !roles.includes(defaultRole))
    throw new OperatorInputError(`default_role: '${defaultRole}' is not a role of the organization`);
  return {
    second_factor: secondFactor,
    sign_in_methods: SIGN_IN_METHODS.filter((m) => methods.includes(m)),
    upstream: change.upstream === undefined ? current.upstream : change.upstream === '' ? null : change.upstream,
    default_role: defaultRole,
  };
}

/** A method a session recorded (RFC 8176 `amr`), with the upstream provider of a federated `fed`. */
export interface RecordedMethod {
  readonly method: string;
  readonly upstream?: string;
}

/** The RFC 8176 §2 values each way of signing in records as its first factor. */
const FIRST_FACTORS: Readonly<Record<string, SignInMethod>> = {
  pwd: 'password',
  hwk: 'passkey',
  swk: 'passkey',
  fed: 'federation',
};

/**
 * How a sign-in was made: the way of its first factor, the first method the session recorded (a
 * password, a passwordless passkey, an upstream provider); a second factor done after it does not
 * change it. Undefined for a session that recorded no known first factor.
 */
export function signInMethodOf(methods: readonly RecordedMethod[]): SignInMethod | undefined {
  const first = methods[0];
  return first === undefined ? undefined : FIRST_FACTORS[first.method];
}

/**
 * Whether a sign-in that recorded `methods` may be used for an organization with `policy`: its way
 * is one of `sign_in_methods`, and a federated one came through the organization's own `upstream`
 * when the policy names one (anyone may hold an account at another provider).
 */
export function allowsSignIn(policy: OrganizationPolicy, methods: readonly RecordedMethod[]): boolean {
  const method = signInMethodOf(methods);
  if (method === undefined || !policy.sign_in_methods.includes(method)) return false;
  return method !== 'federation' || policy.upstream === null || methods[0]?.upstream === policy.upstream;
}

/** The ways `policy` allows, in words for a refusal's detail (English, as the wire is). */
export function allowedSignInWords(policy: OrganizationPolicy): string {
  const words: Readonly<Record<SignInMethod, string>> = {
    password: 'a password',
    passkey: 'a passkey',
    federation: policy.upstream === null ? 'an identity provider' : `the identity provider '${policy.upstream}'`,
  };
  return policy.sign_in_methods.map((method) => words[method]).join(', ');
}
