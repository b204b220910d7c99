import type { ComponentChildren } from 'preact';
import { onLinkClick, useRouter } from './router.js';

/** A link to a console route (`/groups/support`): a real link, followed in the app on a plain click. */
export function ConsoleLink({ to, children }: { readonly to: string; readonly children: ComponentChildren }) {
  const router = useRouter();
  return (
    <a href={router.href(to)} onClick={onLinkClick(router, to)}>
      {children}
    </a>
  );
}
