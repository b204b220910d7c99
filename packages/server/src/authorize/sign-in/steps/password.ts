import { checkPassword } from '../../../users/users.js';
import type { SignInStep } from './step.js';

/**
 * The password (RFC 8176 §2 "pwd"), checked with scrypt. An unknown user and a wrong password
 * fail alike; the name typed is audited only when it is an account's, since an unknown one may
 * be a password typed into the wrong field.
 */
export const passwordStep: SignInStep = {
  methods: ['pwd'],
  async check({ username, field }, { store }) {
    const checked = await checkPassword(store, username, field('password') ?? '');
    if ('failure' in checked)
      return {
        ok: false,
        failure: checked.failure,
        auditedName: checked.failure === 'wrong_password' ? username : null,
      };
    return { ok: true, username: checked.user.username };
  },
};
