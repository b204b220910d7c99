import { AdminError, type Problem } from '../admin.js';
import { useText } from '../text.js';

/** A refusal of the admin API, its body shown as the API sent it (title, detail, fields: English). */
export function ProblemNotice({ problem, onRetry }: { readonly problem: Problem; readonly onRetry?: () => void }) {
  const { t } = useText();
  return (
    <div class="alert alert-error" role="alert">
      <h2>{t('problem.title')}</h2>
      <p>
        <strong lang="en">{problem.title}</strong> · {t('problem.status', { status: problem.status })}
      </p>
      {problem.detail === undefined ? null : <p lang="en">{problem.detail}</p>}
      {problem.errors?.length ? (
        <ul lang="en">
          {problem.errors.map((e, i) => (
            <li key={i}>{e.detail}</li>
          ))}
        </ul>
      ) : null}
      {onRetry === undefined ? null : (
        <button type="button" class="button secondary" onClick={onRetry}>
          {t('problem.retry')}
        </button>
      )}
    </div>
  );
}

/** The problem to show for a failed call: the admin API's own body, or the failure of the call itself. */
export function problemOf(error: unknown): Problem {
  return error instanceof AdminError ? error.problem : { status: 0, title: String(error) };
}
