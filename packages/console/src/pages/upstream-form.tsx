import { useState } from 'preact/hooks';
import { useText } from '../text.js';
import { TextField } from './fields.js';
import {
  bodyOf,
  issuerRefusal,
  MAPPED_CLAIMS,
  privateJwkRefusal,
  type UpstreamForm as Form,
} from './upstream-fields.js';

/**
 * The fields of an upstream provider, for adding one (with its id) or replacing one. The issuer and
 * a private JWK are checked while typed; the credential is asked at every save, since the admin API
 * never answers it.
 */
export function UpstreamForm({
  prefix,
  initial,
  withId,
  submit,
  onSubmit,
  takenIds = [],
  onIdInput,
}: {
  readonly prefix: string;
  /** Ids known to be used: adding one of them would replace that provider. */
  readonly takenIds?: readonly string[];
  /** Told the id as typed (trimmed), to look it up. */
  readonly onIdInput?: (id: string) => void;
  readonly initial: Form;
  readonly withId: boolean;
  readonly submit: string;
  readonly onSubmit: (id: string, body: Record<string, unknown>) => void;
}) {
  const { t } = useText();
  const [form, setForm] = useState<Form>(initial);
  const set = (change: Partial<Form>) => setForm({ ...form, ...change });
  const issuerProblem = issuerRefusal(form.issuer);
  const jwkProblem = form.clientAuth === 'private_key_jwt' ? privateJwkRefusal(form.credential) : undefined;
  const taken = withId && takenIds.includes(form.id.trim());
  const blocked = issuerProblem !== undefined || jwkProblem !== undefined || taken;
  const id = (name: string): string => `${prefix}-${name}`;
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (blocked) return;
        onSubmit(form.id.trim(), bodyOf(form));
        set({ credential: '' });
      }}
    >
      {withId ? (
        <>
          <TextField
            id={id('id')}
            label={t('upstreams.id')}
            hint={t('upstreams.id.hint')}
            value={form.id}
            onInput={(value) => {
              set({ id: value });
              onIdInput?.(value.trim());
            }}
            required
            maxLength={40}
          />
          <p class="field-errors" aria-live="polite">
            {taken ? t('upstreams.id.taken', { id: form.id.trim() }) : ''}
          </p>
        </>
      ) : null}
      <label for={id('issuer')}>{t('upstreams.issuer')}</label>
      <p id={id('issuer-hint')} class="hint">
        {t('upstreams.issuer.hint')}
      </p>
      <input
        id={id('issuer')}
        type="url"
        required
        autoComplete="off"
        spellcheck={false}
        aria-describedby={`${id('issuer-hint')} ${id('issuer-error')}`}
        aria-invalid={issuerProblem === undefined ? undefined : 'true'}
        value={form.issuer}
        onInput={(e) => set({ issuer: e.currentTarget.value })}
      />
      <p id={id('issuer-error')} class="field-errors" aria-live="polite">
        {issuerProblem === undefined ? '' : t(`upstreams.issuer.${issuerProblem}`)}
      </p>
      <TextField
        id={id('client-id')}
        label={t('upstreams.client-id')}
        value={form.clientId}
        onInput={(value) => set({ clientId: value })}
        required
      />
      <label for={id('client-auth')}>{t('upstreams.client-auth')}</label>
      <select
        id={id('client-auth')}
        value={form.clientAuth}
        onChange={(e) => set({ clientAuth: e.currentTarget.value as Form['clientAuth'], credential: '' })}
      >
        <option value="client_secret_basic">client_secret_basic</option>
        <option value="private_key_jwt">private_key_jwt</option>
      </select>
      <label for={id('credential')}>
        {form.clientAuth === 'client_secret_basic' ? t('upstreams.secret') : t('upstreams.private-jwk')}
      </label>
      <p id={id('credential-hint')} class="hint">
        {t('upstreams.credential.hint')}
      </p>
      {form.clientAuth === 'client_secret_basic' ? (
        <input
          id={id('credential')}
          type="password"
          required
          autoComplete="off"
          aria-describedby={id('credential-hint')}
          value={form.credential}
          onInput={(e) => set({ credential: e.currentTarget.value })}
        />
      ) : (
        <textarea
          id={id('credential')}
          required
          rows={4}
          spellcheck={false}
          aria-describedby={`${id('credential-hint')} ${id('credential-error')}`}
          aria-invalid={jwkProblem === undefined ? undefined : 'true'}
          value={form.credential}
          onInput={(e) => set({ credential: e.currentTarget.value })}
        />
      )}
      <p id={id('credential-error')} class="field-errors" aria-live="polite">
        {jwkProblem === undefined ? '' : t(`upstreams.private-jwk.${jwkProblem}`)}
      </p>
      <TextField
        id={id('display-name')}
        label={t('upstreams.display-name')}
        hint={t('upstreams.display-name.hint')}
        value={form.displayName}
        onInput={(value) => set({ displayName: value })}
      />
      <TextField
        id={id('scopes')}
        label={t('upstreams.scopes')}
        hint={t('upstreams.scopes.hint')}
        value={form.scopes}
        onInput={(value) => set({ scopes: value })}
      />
      <TextField
        id={id('domains')}
        label={t('upstreams.domains')}
        hint={t('upstreams.domains.hint')}
        value={form.domains}
        onInput={(value) => set({ domains: value })}
      />
      <TextField
        id={id('trusted')}
        label={t('upstreams.trusted')}
        hint={t('upstreams.trusted.hint')}
        value={form.trustedDomains}
        onInput={(value) => set({ trustedDomains: value })}
      />
      <TextField
        id={id('mfa-acr')}
        label={t('upstreams.mfa-acr')}
        hint={t('upstreams.mfa-acr.hint')}
        value={form.mfaAcrValues}
        onInput={(value) => set({ mfaAcrValues: value })}
      />
      <TextField
        id={id('icon')}
        label={t('upstreams.icon')}
        hint={t('upstreams.icon.hint')}
        value={form.icon}
        onInput={(value) => set({ icon: value })}
      />
      <fieldset>
        <legend>{t('upstreams.claims')}</legend>
        <p class="hint">{t('upstreams.claims.hint')}</p>
        {MAPPED_CLAIMS.map((claim) => (
          <TextField
            key={claim}
            id={id(`claim-${claim}`)}
            label={claim}
            value={form.claims[claim] ?? ''}
            onInput={(value) => set({ claims: { ...form.claims, [claim]: value } })}
          />
        ))}
      </fieldset>
      <label class="check">
        <input type="checkbox" checked={form.provision} onChange={(e) => set({ provision: e.currentTarget.checked })} />
        {t('upstreams.provision')}
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={form.endSession}
          onChange={(e) => set({ endSession: e.currentTarget.checked })}
        />
        {t('upstreams.end-session')}
      </label>
      <button type="submit" class="button primary" disabled={blocked}>
        {submit}
      </button>
    </form>
  );
}
