import { checkOneTimeCode } from '../../../factors/factors.js';
import { stepPassed, type SecondFactor } from './step.js';

/**
 * A one-time code of the user's authenticator app (RFC 6238, RFC 8176 §2 "otp"): within ±1 step
 * of now, and not of a step already used (a code is good once, RFC 6238 §5.2); the step used and
 * its audit event are written in one transaction.
 */
export const otpStep: SecondFactor = {
  methods: ['otp'],
  label: 'Code from your authenticator app',
  async enrolled(user, store) {
    return (await store.findSecondFactor(user.subject, 'otp')) !== undefined;
  },
  async check(attempt, { store, audit, factors }) {
    const { username, field, now } = attempt;
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    const checked = await checkOneTimeCode(audit, store, factors, {
      subject: user.subject,
      code: field('code') ?? '',
      now,
      audited: stepPassed(attempt, user.subject),
    });
    if (checked !== 'ok') return { ok: false, failure: checked, auditedName: username };
    return { ok: true, username, audited: true };
  },
};
