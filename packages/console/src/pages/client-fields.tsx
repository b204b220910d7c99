/** The fields of a client's registration shared by its creation and its editing. */
import { redirectUriRefusal, type RedirectUriRefusal } from '@gatehouse/contract';
import type { MessageId } from '../i18n/index.js';
import { useText } from '../text.js';
import { Checks } from './fields.js';

/** The words of the shared redirect URI rule's refusals (@gatehouse/contract redirectUriRefusal). */
const REFUSAL_TEXT: Readonly<Record<RedirectUriRefusal, MessageId>> = {
  characters: 'clients.redirect.characters',
  'not-absolute': 'clients.redirect.not-absolute',
  fragment: 'clients.redirect.fragment',
  'plain-http': 'clients.redirect.plain-http',
};

/** The redirect URIs of a textarea's text: one a line, empty lines left out. */
export function redirectUrisOf(text: string): readonly string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '');
}

/** The lines the server would refuse, each with why: checked as the server registers and matches them. */
export function redirectUriRefusals(uris: readonly string[]): readonly { uri: string; refusal: RedirectUriRefusal }[] {
  return uris.flatMap((uri) => {
    const refusal = redirectUriRefusal(uri);
    return refusal === undefined ? [] : [{ uri, refusal }];
  });
}

/**
 * The redirect URIs of a client, one a line, each checked while the operator types by the rule the
 * server registers and matches by (one definition, @gatehouse/contract): a sign-in returns only to a
 * URI registered exactly, character for character (RFC 6749 §3.1.2.3).
 */
export function RedirectUrisField({
  id,
  value,
  onInput,
}: {
  readonly id: string;
  readonly value: string;
  readonly onInput: (value: string) => void;
}) {
  const { t } = useText();
  const refusals = redirectUriRefusals(redirectUrisOf(value));
  return (
    <>
      <label for={id}>{t('clients.redirect-uris')}</label>
      <p id={`${id}-hint`} class="hint">
        {t('clients.redirect.hint')}
      </p>
      <textarea
        id={id}
        rows={3}
        value={value}
        spellcheck={false}
        aria-describedby={`${id}-hint ${id}-refusals`}
        aria-invalid={refusals.length > 0 ? 'true' : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      <ul id={`${id}-refusals`} class="plain field-errors" aria-live="polite">
        {refusals.map(({ uri, refusal }) => (
          <li key={uri}>
            <code class="uri">{uri}</code>: {t(REFUSAL_TEXT[refusal])}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The grants an operator picks for a client (RFC 6749 §4, RFC 8628). */
export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

/** The grant types of a client, a box each; any others it has (token exchange) are kept as they are. */
export function GrantTypesField({
  value,
  onChange,
}: {
  readonly value: readonly string[];
  readonly onChange: (value: readonly string[]) => void;
}) {
  const { t } = useText();
  return <Checks legend={t('clients.grant-types')} options={GRANT_TYPES} ticked={value} onChange={onChange} />;
}
