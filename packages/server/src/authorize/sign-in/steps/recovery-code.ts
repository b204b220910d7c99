import { useRecoveryCode } from '../../../factors/factors.js';
import type { SecondFactor } from './step.js';

/**
 * One of the user's recovery codes, used once (marked used atomically, audited). RFC 8176 has no
 * value of its own for it; a single-use code is recorded as "otp" (§2: one-time password).
 */
export const recoveryCodeStep: SecondFactor = {
  methods: ['otp'],
  label: 'Recovery code',
  async enrolled(user, store) {
    return (await store.countRecoveryCodes(user.subject)) > 0;
  },
  async check({ username, field, now }, { store, audit }) {
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    if (!(await useRecoveryCode(audit, user.subject, field('code') ?? '', now)))
      return { ok: false, failure: 'wrong_recovery_code', auditedName: username };
    return { ok: true, username };
  },
};
