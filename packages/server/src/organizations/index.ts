/**
 * Organizations (tenants): members with organization roles, verified e-mail domains (JIT membership,
 * home-realm discovery), a sign-in policy each, and the organization a token is issued for. The
 * other folders reach it only through this file.
 */
export {
  addDomain,
  changeOrganization,
  checkedDomain,
  createOrganization,
  describeDomain,
  describeMember,
  describeOrganization,
  existingOrganization,
  listMembers,
  putMember,
  removeDomain,
  removeMember,
  removeOrganization,
  type NewOrganization,
  type OrganizationChange,
} from './administration.js';
export {
  chooseOrganization,
  joinByVerifiedDomain,
  ORGANIZATION_SCOPE,
  organizationClaims,
  organizationOfDomain,
  upstreamOfEmail,
  verifiedEmailDomain,
  type OrganizationChoice,
  type OrganizationClaims,
} from './membership.js';
export {
  allowedSignInWords,
  allowsSignIn,
  changedPolicy,
  DEFAULT_POLICY,
  parsePolicy,
  signInMethodOf,
  SIGN_IN_METHODS,
  type OrganizationPolicy,
  type PolicyChange,
  type SignInMethod,
} from './policy.js';
export { isPublicMailDomain } from './public-mail-domains.js';
