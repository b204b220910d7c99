import { passwordRefusal } from '../../../users/password-policy.js';
import { hashPassword, verifyPassword } from '../../../users/passwords.js';
import { stepPassed, type SignInFailure, type SignInStep } from './step.js';

/** Each refusal of the password policy as a sign-in failure (the page says which). */
const REFUSALS = {
  too_short: 'password_too_short',
  too_long: 'password_too_long',
  too_common: 'password_too_common',
} as const satisfies Record<string, SignInFailure>;

/**
 * The replacement of a temporary password (`gatehouse users passwd --temporary`, or the admin API's
 * `temporary`), a required action: the new password passes the one policy of a password a person
 * chooses (users/password-policy.ts, NIST SP 800-63B §3.1.1.2) and is not the temporary one. It
 * proves nothing new of the person (the temporary password did), so it adds no `amr` value. The
 * new hash, the end of the temporary state and the audit events (`user_password_set` with the
 * reason, and the step's) are written in one transaction. The pipeline offers it only to a pending
 * session whose next due is this.
 */
export const changePasswordStep: SignInStep = {
  methods: [],
  async check(attempt, { store, audit }) {
    const { username, field, now } = attempt;
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    if (user.passwordTemporary !== true) return { ok: false, failure: 'enrolment_refused', auditedName: username };
    const password = field('password') ?? '';
    const refusal = await passwordRefusal(password, [user.username, user.claims.email ?? '', user.claims.name ?? '']);
    if (refusal) return { ok: false, failure: REFUSALS[refusal], auditedName: username };
    if (await verifyPassword(password, user.passwordHash))
      return { ok: false, failure: 'password_unchanged', auditedName: username };
    const passwordHash = await hashPassword(password);
    await audit.transaction(async (tx, record) => {
      await tx.updateUserPassword(user.username, passwordHash, now);
      await record({
        event: 'user_password_set',
        at: now,
        subject: user.subject,
        clientId: attempt.clientId,
        address: attempt.address,
        reason: 'temporary password replaced at sign-in',
      });
      await record(stepPassed(attempt, user.subject));
    });
    return { ok: true, username, audited: true };
  },
};
