import type { SignInStep } from './step.js';

/**
 * The e-mail verification of a sign-in under EMAIL_VERIFICATION=required: the six-digit code the
 * page mailed to the user's address (`emailCodes`). It proves the mailbox, not the person, so it
 * adds no `amr` value; the pipeline offers it only to a pending session whose next due is this.
 */
export const emailCodeStep: SignInStep = {
  methods: [],
  async check(attempt, { store, emailCodes }) {
    const { username, field, now, address } = attempt;
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    if (!emailCodes) return { ok: false, failure: 'enrolment_refused', auditedName: username };
    const checked = await emailCodes.check(user, field('code') ?? '', address, now);
    if (checked.kind !== 'verified') return { ok: false, failure: 'wrong_email_code', auditedName: username };
    return { ok: true, username };
  },
};
