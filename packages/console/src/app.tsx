import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AdminApi, AdminError } from './admin.js';
import type { ConsoleText } from './i18n/index.js';
import { Dashboard } from './pages/dashboard.js';
import { Refused, type RefusalReason } from './pages/refused.js';
import { Welcome } from './pages/welcome.js';
import { SignInRefused, type Session } from './session.js';
import { TextContext, useText } from './text.js';

type View =
  | { readonly kind: 'loading' }
  | { readonly kind: 'welcome'; readonly signedOut: boolean }
  | { readonly kind: 'refused'; readonly reason: RefusalReason }
  | { readonly kind: 'signed-in'; readonly path: string };

/** The console's path below `<issuer>/console`: '' for the dashboard, '/callback', ... */
function consolePath(session: Session): string {
  const home = new URL(session.config.home).pathname;
  return location.pathname.startsWith(home) ? location.pathname.slice(home.length).replace(/\/$/, '') : '';
}

export function App({ session, text }: { readonly session: Session; readonly text: ConsoleText }) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const api = new AdminApi(session);

  useEffect(() => {
    const path = consolePath(session);
    if (path !== '/callback') {
      setView({ kind: 'welcome', signedOut: false });
      return;
    }
    session
      .complete(location.href)
      .then(({ returnTo }) => {
        history.replaceState(null, '', `${session.config.home}${returnTo}`);
        setView({ kind: 'signed-in', path: returnTo });
      })
      .catch((error: unknown) => {
        history.replaceState(null, '', session.config.home);
        setView({ kind: 'refused', reason: error instanceof SignInRefused ? error.reason : 'callback' });
      });
  }, []);

  const signIn = () => void session.signIn(consolePath(session) === '/callback' ? '' : consolePath(session));
  /** The admin API refused the operator as such (403): no admin role. */
  const refusedByApi = (error: unknown): boolean => {
    if (error instanceof AdminError && error.forbidden) {
      setView({ kind: 'refused', reason: 'role' });
      return true;
    }
    return false;
  };

  return (
    <TextContext.Provider value={text}>
      <a class="skip" href="#main">
        {text.t('console.skip')}
      </a>
      {view.kind === 'signed-in' ? (
        <Shell session={session}>
          <Dashboard api={api} onForbidden={refusedByApi} />
        </Shell>
      ) : (
        <main id="main" class="console-single" tabIndex={-1}>
          {view.kind === 'loading' ? (
            <p>{text.t('console.loading')}</p>
          ) : view.kind === 'welcome' ? (
            <Welcome onSignIn={signIn} />
          ) : (
            <Refused
              reason={view.reason}
              name={
                session.current?.claims.preferred_username ??
                session.current?.claims.name ??
                session.current?.claims.sub ??
                ''
              }
              accountUrl={`${session.config.issuer}/account`}
              onSignIn={() => (session.current ? void session.signOut() : signIn())}
            />
          )}
        </main>
      )}
    </TextContext.Provider>
  );
}

function Shell({ session, children }: { readonly session: Session; readonly children: ComponentChildren }) {
  const { t } = useText();
  const claims = session.current?.claims;
  const name = claims?.preferred_username ?? claims?.name ?? claims?.sub ?? '';
  return (
    <>
      <header class="console-header">
        <span class="console-brand">{t('console.title')}</span>
        <nav aria-label={t('console.nav')}>
          <ul>
            <li>
              <a href={session.config.home} aria-current="page">
                {t('nav.dashboard')}
              </a>
            </li>
          </ul>
        </nav>
        <span class="console-who">{t('console.signed-in-as', { name })}</span>
        <button type="button" class="button secondary" onClick={() => void session.signOut()}>
          {t('console.sign-out')}
        </button>
      </header>
      <main id="main" class="console-main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
