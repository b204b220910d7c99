import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AdminApi, AdminError } from './admin.js';
import type { ConsoleText } from './i18n/index.js';
import { Audit } from './pages/audit.js';
import { ClientPage } from './pages/client.js';
import { Clients } from './pages/clients.js';
import { Dashboard } from './pages/dashboard.js';
import { GroupPage } from './pages/group.js';
import { Groups } from './pages/groups.js';
import { Keys } from './pages/keys.js';
import { OrganizationPage } from './pages/organization.js';
import { Organizations } from './pages/organizations.js';
import { Refused, type RefusalReason } from './pages/refused.js';
import { RolePage } from './pages/role.js';
import { Roles } from './pages/roles.js';
import { UpstreamPage } from './pages/upstream.js';
import { Upstreams } from './pages/upstreams.js';
import { UserPage } from './pages/user.js';
import { Users } from './pages/users.js';
import { Welcome } from './pages/welcome.js';
import { RouterContext, onLinkClick, type Router } from './router.js';
import { SignInRefused, type Session } from './session.js';
import { TextContext, useText } from './text.js';
import { useRouter } from './router.js';

type View =
  | { readonly kind: 'loading' }
  | { readonly kind: 'welcome'; readonly signedOut: boolean }
  | { readonly kind: 'refused'; readonly reason: RefusalReason }
  | { readonly kind: 'signed-in' };

/** The console's path below `<issuer>/console`: '' for the dashboard, '/callback', ... */
function consolePath(session: Session): string {
  return session.pagePath();
}

export function App({ session, text }: { readonly session: Session; readonly text: ConsoleText }) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [path, setPath] = useState(() => consolePath(session));
  const [notice, setNotice] = useState<string | undefined>();
  const api = new AdminApi(session);
  const router: Router = {
    path,
    href: (to) => `${session.config.home}${to}`,
    notice,
    go: (to, carried) => {
      history.pushState(null, '', `${session.config.home}${to}`);
      setNotice(carried);
      setPath(to);
      document.getElementById('main')?.focus();
    },
  };
  useEffect(() => {
    const back = () => {
      setNotice(undefined);
      setPath(consolePath(session));
    };
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);

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
        setPath(returnTo);
        setView({ kind: 'signed-in' });
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
        <RouterContext.Provider value={router}>
          <Shell session={session}>
            <Route path={path} api={api} onForbidden={refusedByApi} />
          </Shell>
        </RouterContext.Provider>
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

/** The page of a console path. */
function Route({
  path,
  api,
  onForbidden,
}: {
  readonly path: string;
  readonly api: AdminApi;
  readonly onForbidden: (error: unknown) => boolean;
}) {
  const user = /^\/users\/([^/]+)$/.exec(path)?.[1];
  if (user !== undefined)
    return <UserPage key={user} api={api} username={decodeURIComponent(user)} onForbidden={onForbidden} />;
  const client = /^\/clients\/([^/]+)$/.exec(path)?.[1];
  if (client !== undefined)
    return <ClientPage key={client} api={api} clientId={decodeURIComponent(client)} onForbidden={onForbidden} />;
  if (path === '/users') return <Users api={api} onForbidden={onForbidden} />;
  const group = /^\/groups\/([^/]+)$/.exec(path)?.[1];
  if (group !== undefined)
    return <GroupPage key={group} api={api} name={decodeURIComponent(group)} onForbidden={onForbidden} />;
  if (path === '/groups') return <Groups api={api} onForbidden={onForbidden} />;
  // A role by its name, and its API when it is an API's (the admin API's `?api=`).
  const role = /^\/roles\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (role?.[1] !== undefined) {
    const audience = role[2] === undefined ? null : decodeURIComponent(role[2]);
    return (
      <RolePage key={path} api={api} name={decodeURIComponent(role[1])} audience={audience} onForbidden={onForbidden} />
    );
  }
  if (path === '/roles') return <Roles api={api} onForbidden={onForbidden} />;
  const organization = /^\/organizations\/([^/]+)$/.exec(path)?.[1];
  if (organization !== undefined)
    return (
      <OrganizationPage
        key={organization}
        api={api}
        slug={decodeURIComponent(organization)}
        onForbidden={onForbidden}
      />
    );
  if (path === '/organizations') return <Organizations api={api} onForbidden={onForbidden} />;
  if (path === '/clients') return <Clients api={api} onForbidden={onForbidden} />;
  const upstream = /^\/upstreams\/([^/]+)$/.exec(path)?.[1];
  if (upstream !== undefined)
    return <UpstreamPage key={upstream} api={api} id={decodeURIComponent(upstream)} onForbidden={onForbidden} />;
  if (path === '/upstreams') return <Upstreams api={api} onForbidden={onForbidden} />;
  if (path === '/audit') return <Audit api={api} onForbidden={onForbidden} />;
  if (path === '/keys') return <Keys api={api} onForbidden={onForbidden} />;
  return <Dashboard api={api} onForbidden={onForbidden} />;
}

/** The sections of the console, in the navigation's order. */
const SECTIONS = [
  { path: '', label: 'nav.dashboard' },
  { path: '/users', label: 'nav.users' },
  { path: '/groups', label: 'nav.groups' },
  { path: '/roles', label: 'nav.roles' },
  { path: '/organizations', label: 'nav.organizations' },
  { path: '/clients', label: 'nav.clients' },
  { path: '/upstreams', label: 'nav.upstreams' },
  { path: '/keys', label: 'nav.keys' },
  { path: '/audit', label: 'nav.audit' },
] as const;

function Shell({ session, children }: { readonly session: Session; readonly children: ComponentChildren }) {
  const { t } = useText();
  const router = useRouter();
  const claims = session.current?.claims;
  const name = claims?.preferred_username ?? claims?.name ?? claims?.sub ?? '';
  return (
    <>
      <header class="console-header">
        <span class="console-brand">{t('console.title')}</span>
        <nav aria-label={t('console.nav')}>
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.path}>
                <a
                  href={router.href(section.path)}
                  onClick={onLinkClick(router, section.path)}
                  aria-current={
                    router.path === section.path || (section.path !== '' && router.path.startsWith(`${section.path}/`))
                      ? 'page'
                      : undefined
                  }
                >
                  {t(section.label)}
                </a>
              </li>
            ))}
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
