import { stepPassed, type SignInStep } from './step.js';

/**
 * The acceptance of the terms (TERMS_URL, TERMS_VERSION), a required action after every other step.
 * The form carries the version its page showed: a version changed since is refused and the page
 * shows the new one. The version and time are stored on the user with the `terms_accepted` event,
 * in one transaction; a new TERMS_VERSION asks again. No `amr` value: it proves nothing of the
 * person. Declining is not a step: the sign-in ends (sign-in-forms.ts).
 */
export const termsStep: SignInStep = {
  methods: [],
  async check(attempt, { store, audit, terms }) {
    const { username, field, now } = attempt;
    const user = await store.findUser(username);
    if (!user) return { ok: false, failure: 'unknown_user', auditedName: null };
    if (terms === undefined || field('version') !== terms.version)
      return { ok: false, failure: 'terms_changed', auditedName: username };
    await audit.transaction(async (tx, record) => {
      await tx.recordTermsAcceptance(user.username, terms.version, now);
      await record({
        event: 'terms_accepted',
        at: now,
        subject: user.subject,
        clientId: attempt.clientId,
        address: attempt.address,
        reason: `version ${terms.version}`,
      });
      await record(stepPassed(attempt, user.subject));
    });
    return { ok: true, username, audited: true };
  },
};
