import { useText } from '../text.js';

/** What a visitor who is not signed in sees: what the console is, and the one way in. */
export function Welcome({ onSignIn }: { readonly onSignIn: () => void }) {
  const { t } = useText();
  return (
    <section class="card">
      <h1>{t('welcome.title')}</h1>
      <p class="lead">{t('welcome.lead')}</p>
      <button type="button" class="button primary" onClick={onSignIn}>
        {t('welcome.sign-in')}
      </button>
    </section>
  );
}
