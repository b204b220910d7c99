import type { MessageId } from '../i18n/index.js';
import type { SignInRefused } from '../session.js';
import { useText } from '../text.js';

export type RefusalReason = SignInRefused['reason'] | 'role';

const TEXT: Readonly<Record<RefusalReason, readonly [MessageId, MessageId]>> = {
  'second-factor': ['refused.second-factor.title', 'refused.second-factor.detail'],
  role: ['refused.role.title', 'refused.role.detail'],
  callback: ['refused.callback.title', 'refused.callback.detail'],
  invalid: ['refused.invalid.title', 'refused.invalid.detail'],
  'not-fresh': ['refused.not-fresh.title', 'refused.not-fresh.detail'],
};

/** Why the console cannot be used now, and what the operator can do about it. */
export function Refused({
  reason,
  name,
  accountUrl,
  onSignIn,
}: {
  readonly reason: RefusalReason;
  readonly name: string;
  readonly accountUrl: string;
  readonly onSignIn: () => void;
}) {
  const { t } = useText();
  const [title, detail] = TEXT[reason];
  return (
    <section class="card" role="alert" aria-labelledby="refused-title">
      <h1 id="refused-title">{t(title)}</h1>
      <p class="lead">{t(detail, { name })}</p>
      <div class="actions">
        <button type="button" class="button primary" onClick={onSignIn}>
          {t('refused.sign-in-again')}
        </button>
        {reason === 'second-factor' || reason === 'role' ? (
          <a class="button secondary" href={accountUrl}>
            {t('refused.account')}
          </a>
        ) : null}
      </div>
    </section>
  );
}
