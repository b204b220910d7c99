import { useState } from 'preact/hooks';
import { useText } from '../text.js';
import { ChangeButton, type Changes } from './change.js';
import { Checks, TextField } from './fields.js';
import type { Organization } from './organizations.js';

/** The ways of signing in an organization may allow (docs/organizations.md). */
const SIGN_IN_METHODS = ['password', 'passkey', 'federation'] as const;

/**
 * An organization's sign-in policy, changed as a whole through the admin API's PATCH (`policy`):
 * its second factor, the ways of signing in it allows, its upstream provider and the role of a
 * member its verified domains make.
 */
export function PolicyForm({
  organization,
  onChange,
}: {
  readonly organization: Organization;
  readonly onChange: (policy: Organization['policy']) => void;
}) {
  const { t } = useText();
  const { policy } = organization;
  const [secondFactor, setSecondFactor] = useState(policy.second_factor);
  const [methods, setMethods] = useState<readonly string[]>(policy.sign_in_methods);
  const [upstream, setUpstream] = useState(policy.upstream ?? '');
  const [defaultRole, setDefaultRole] = useState(policy.default_role ?? '');
  return (
    <section class="panel" aria-labelledby="organization-policy">
      <h2 id="organization-policy">{t('organizations.policy')}</h2>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          onChange({
            second_factor: secondFactor,
            sign_in_methods: SIGN_IN_METHODS.filter((m) => methods.includes(m)),
            upstream: upstream.trim() === '' ? null : upstream.trim(),
            default_role: defaultRole === '' ? null : defaultRole,
          });
        }}
      >
        <label for="organization-second-factor">{t('organizations.second-factor')}</label>
        <select
          id="organization-second-factor"
          value={secondFactor}
          onChange={(e) => setSecondFactor(e.currentTarget.value)}
        >
          <option value="optional">{t('organizations.second-factor.optional')}</option>
          <option value="required">{t('organizations.second-factor.required')}</option>
        </select>
        <Checks
          legend={t('organizations.sign-in-methods')}
          options={SIGN_IN_METHODS}
          ticked={methods}
          onChange={setMethods}
        />
        <TextField
          id="organization-upstream"
          label={t('organizations.upstream')}
          hint={t('organizations.upstream.hint')}
          value={upstream}
          onInput={setUpstream}
          maxLength={64}
        />
        <label for="organization-default-role">{t('organizations.default-role')}</label>
        <select
          id="organization-default-role"
          value={defaultRole}
          onChange={(e) => setDefaultRole(e.currentTarget.value)}
        >
          <option value="">{t('organizations.default-role.none')}</option>
          {organization.roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <button type="submit" class="button secondary">
          {t('organizations.policy.submit')}
        </button>
      </form>
    </section>
  );
}

/** An organization's e-mail domains: each removed on a second click; one added, verified when ticked. */
export function Domains({
  organization,
  path,
  changes,
  reload,
}: {
  readonly organization: Organization;
  /** The admin API's path of the organization. */
  readonly path: string;
  readonly changes: Changes;
  readonly reload: () => void;
}) {
  const { t } = useText();
  const [domain, setDomain] = useState('');
  const [verified, setVerified] = useState(false);
  const domains = organization.domains ?? [];
  const domainPath = (d: string): string => `${path}/domains/${encodeURIComponent(d)}`;
  return (
    <section class="panel" aria-labelledby="organization-domains">
      <h2 id="organization-domains">{t('organizations.domains')}</h2>
      {domains.length === 0 ? <p>{t('organizations.domains.none')}</p> : null}
      <ul class="plain">
        {domains.map((d) => (
          <li key={d.domain} class="row-actions">
            <span>
              <code>{d.domain}</code>{' '}
              <span>{d.verified ? t('organizations.domain.verified') : t('organizations.domain.not-verified')}</span>
            </span>
            <ChangeButton
              changes={changes}
              label={t('organizations.domains.remove', { domain: d.domain })}
              confirm={t('organizations.domains.remove.confirm', { domain: d.domain })}
              request={{
                method: 'DELETE',
                path: domainPath(d.domain),
                done: t('organizations.domains.removed', { domain: d.domain }),
              }}
              then={reload}
            />
          </li>
        ))}
      </ul>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          const name = domain.trim().toLowerCase();
          if (name === '') return;
          changes.change(
            'PUT',
            domainPath(name),
            { verified },
            t('organizations.domains.added', { domain: name }),
            reload,
          );
          setDomain('');
          setVerified(false);
        }}
      >
        <TextField
          id="organization-domain"
          label={t('organizations.domains.new')}
          hint={t('organizations.domains.hint')}
          value={domain}
          onInput={setDomain}
          required
          maxLength={253}
        />
        <label class="check">
          <input type="checkbox" checked={verified} onChange={(e) => setVerified(e.currentTarget.checked)} />
          {t('organizations.domains.verified')}
        </label>
        <button type="submit" class="button secondary">
          {t('organizations.domains.add')}
        </button>
      </form>
    </section>
  );
}
