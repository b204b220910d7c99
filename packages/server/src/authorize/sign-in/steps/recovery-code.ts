import { useRecoveryCode } from '../../../factors/factors.js';
import { stepPassed, type SecondFactor } from './step.js';

/**
 * One of the user's recovery codes, used once (marked used atomically, with its audit event). RFC
 * 8176 has no value of its own for it; a single-use code is recorded as "otp" (§2: one-time password).
 */
export const recoveryCodeStep: SecondFactor = {
  methods: ['otp'],
  label: 'Recovery code',
  async enrolled(user, store) {
    return (await store.countRecoveryCodes(user.subject)) > 0;
  },
  async check(attempt, { store, audit }) {
    const { username, field, now } = attempt;
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    const used = await useRecoveryCode(audit, {
      subject: user.subject,
      typed: field('code') ?? '',
      now,
      audited: (left) => stepPassed(attempt, user.subject, `${left} left`),
    });
    if (!used) return { ok: false, failure: 'wrong_recovery_code', auditedName: username };
    return { ok: true, username, audited: true };
  },
};
