import { confirmOtpEnrolment, reopenOtpEnrolment } from '../../../factors/factors.js';
import { stepPassed, type SignInStep } from './step.js';

/**
 * Enrolment during a sign-in, for a user without a second factor whom the policy requires one of:
 * the secret the page showed (carried sealed to this session in the form) confirmed by a code of
 * it; then stored, with ten recovery codes shown once. Records "otp": the user proved it holds the
 * authenticator now enrolled. The pipeline offers it only to a user with no second factor, so a
 * password alone never adds a factor beside an existing one.
 */
export const otpEnrolmentStep: SignInStep = {
  methods: ['otp'],
  async check(attempt, { store, audit, factors }) {
    const { username, field, now, sessionId } = attempt;
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    const enrolment = reopenOtpEnrolment(factors, sessionId, field('enrolment') ?? '', username);
    if (!enrolment) return { ok: false, failure: 'enrolment_refused', auditedName: username };
    const secret = enrolment.secret;
    const confirmed = await confirmOtpEnrolment(audit, factors, {
      subject: user.subject,
      secret,
      code: field('code') ?? '',
      now,
      audited: stepPassed(attempt, user.subject),
    });
    if (!confirmed.ok)
      return {
        ok: false,
        failure: confirmed.reason === 'wrong_code' ? 'wrong_code' : 'enrolment_refused',
        auditedName: username,
      };
    return { ok: true, username, reveal: confirmed.recoveryCodes, audited: true };
  },
};
