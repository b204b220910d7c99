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
