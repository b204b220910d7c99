import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** The console's routes are paths below `<issuer>/console`; the app moves between them without a reload. */
export interface Router {
  /** The path below the console's home: '' (the dashboard), '/users', '/users/alice' ... */
  readonly path: string;
  readonly href: (path: string) => string;
  /** Moves to `path`; `notice` (what was just done, such as a deletion) is shown on the page reached. */
  readonly go: (path: string, notice?: string) => void;
  /** The notice the move to this page carried, until the next move. */
  readonly notice: string | undefined;
}

export const RouterContext = createContext<Router>({
  path: '',
  href: (p) => p,
  go: () => undefined,
  notice: undefined,
});

export function useRouter(): Router {
  return useContext(RouterContext);
}

/** A link to a console route: a real link (middle click, a new tab), followed in the app on a plain click. */
export function onLinkClick(router: Router, path: string) {
  return (event: MouseEvent): void => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    router.go(path);
  };
}
