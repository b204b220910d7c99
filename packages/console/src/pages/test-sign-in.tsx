import { useEffect, useRef, useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import type { MessageId } from '../i18n/index.js';
import { useText } from '../text.js';
import { ProblemNotice, problemOf } from './problem.js';

/** A test sign-in as the admin API answers it (UpstreamTestSignIn; docs/federation.md, "Testing an upstream"). */
export type TestResult =
  | { readonly id: string; readonly status: 'pending'; readonly authorization_url?: string }
  | {
      readonly status: 'succeeded';
      readonly issuer: string;
      readonly subject: string;
      readonly acr: string | null;
      readonly amr: readonly string[];
      readonly claims: Readonly<Record<string, unknown>>;
      readonly mapped_claims: Readonly<Record<string, unknown>>;
      readonly local_account: { readonly action: LocalAction; readonly username?: string; readonly reason?: string };
    }
  | {
      readonly status: 'failed';
      readonly problem: { readonly code: string; readonly status: number; readonly title: string };
      readonly detail: string;
    };

type LocalAction = 'sign_in' | 'link' | 'link_after_proof' | 'provision' | 'refuse';

const ACTION_TEXT: Readonly<Record<LocalAction, MessageId>> = {
  sign_in: 'test.local.sign_in',
  link: 'test.local.link',
  link_after_proof: 'test.local.link_after_proof',
  provision: 'test.local.provision',
  refuse: 'test.local.refuse',
};

/** How often the result is asked for while the upstream's window is open, milliseconds. */
const POLL_MS = 1000;

/**
 * "Test sign-in": the admin API starts a sign-in at the upstream, which runs in a window of its own
 * (the console's tokens live in this page's memory), then the result is read until it is there.
 * The window is opened empty on the click (a browser lets a click open one), cut from this page
 * (`opener` null: the upstream's page cannot navigate the console) and then sent to the upstream.
 */
export function TestSignIn({ api, upstream }: { readonly api: AdminApi; readonly upstream: string }) {
  const { t } = useText();
  const [result, setResult] = useState<TestResult | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);
  const base = `/upstreams/${encodeURIComponent(upstream)}/test-sign-ins`;

  const follow = (id: string, popup: Window | null) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    stop.current = () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
    const ask = () => {
      api
        .get<TestResult>(`${base}/${encodeURIComponent(id)}`)
        .then((answer) => {
          if (stopped) return;
          if (answer.status === 'pending') timer = setTimeout(ask, POLL_MS);
          else {
            popup?.close();
            setResult(answer);
          }
        })
        .catch((error: unknown) => {
          if (stopped) return;
          setResult(undefined);
          setProblem(problemOf(error));
        });
    };
    timer = setTimeout(ask, POLL_MS);
  };

  const start = () => {
    stop.current();
    setProblem(undefined);
    const popup = window.open('', `gatehouse-test-${upstream}`);
    if (popup !== null) popup.opener = null;
    setResult({ id: '', status: 'pending' });
    api
      .request<TestResult>('POST', base)
      .then((started) => {
        if (started.status !== 'pending' || started.authorization_url === undefined) {
          popup?.close();
          setResult(started);
          return;
        }
        if (popup === null) window.open(started.authorization_url, '_blank', 'noopener');
        else popup.location.href = started.authorization_url;
        follow(started.id, popup);
      })
      .catch((error: unknown) => {
        popup?.close();
        setResult(undefined);
        setProblem(problemOf(error));
      });
  };

  return (
    <section class="panel panel-wide" aria-labelledby="test-sign-in-title">
      <h2 id="test-sign-in-title">{t('test.title')}</h2>
      <p class="hint">{t('test.hint')}</p>
      <button type="button" class="button primary" id="test-sign-in" onClick={start}>
        {t('test.start')}
      </button>
      {problem === undefined ? null : <ProblemNotice problem={problem} />}
      <div aria-live="polite">
        {result === undefined ? null : result.status === 'pending' ? (
          <p class="notice" role="status">
            {t('test.pending')}
          </p>
        ) : result.status === 'failed' ? (
          <div class="alert-error" id="test-result">
            <h3>{t('test.failed')}</h3>
            <p>
              {result.problem.title} (<code>{result.problem.code}</code>, HTTP {result.problem.status})
            </p>
            <p>
              <code class="uri">{result.detail}</code>
            </p>
          </div>
        ) : (
          <Succeeded result={result} />
        )}
      </div>
    </section>
  );
}

function Succeeded({ result }: { readonly result: Extract<TestResult, { status: 'succeeded' }> }) {
  const { t } = useText();
  const local = result.local_account;
  return (
    <div class="notice" id="test-result">
      <h3>{t('test.succeeded')}</h3>
      <p>
        <strong>{t(ACTION_TEXT[local.action], { username: local.username ?? '', reason: local.reason ?? '' })}</strong>
      </p>
      <dl class="values">
        <dt>iss</dt>
        <dd>
          <code>{result.issuer}</code>
        </dd>
        <dt>sub</dt>
        <dd>
          <code>{result.subject}</code>
        </dd>
        <dt>acr</dt>
        <dd>{result.acr ?? '—'}</dd>
        <dt>amr</dt>
        <dd>{result.amr.length === 0 ? '—' : result.amr.join(' ')}</dd>
      </dl>
      <ClaimsTable id="test-claims" caption={t('test.claims')} claims={result.claims} />
      <ClaimsTable id="test-mapped" caption={t('test.mapped')} claims={result.mapped_claims} />
    </div>
  );
}

/** Claims as a table of names and JSON values, scrolling inside its own region (Tab reaches it). */
function ClaimsTable({
  id,
  caption,
  claims,
}: {
  readonly id: string;
  readonly caption: string;
  readonly claims: Readonly<Record<string, unknown>>;
}) {
  const { t } = useText();
  return (
    <div class="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table id={id}>
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('test.claim')}</th>
            <th scope="col">{t('test.value')}</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(claims).map(([name, value]) => (
            <tr key={name}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <code class="uri">{JSON.stringify(value)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
