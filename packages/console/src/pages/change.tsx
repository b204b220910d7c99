import { useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import { useText } from '../text.js';
import { ProblemNotice, problemOf } from './problem.js';

/** A change an operator makes through the admin API, and what it came to: a notice, or the API's refusal. */
export interface Changes {
  /** Sends the change; on success shows `done` and runs `then` (a reload, a move to another page). */
  readonly change: (method: string, path: string, body: unknown, done: string, then?: () => void) => void;
  readonly outcome: { readonly notice: string | undefined; readonly problem: Problem | undefined };
}

export function useChanges(api: AdminApi, onForbidden: (error: unknown) => boolean): Changes {
  const [notice, setNotice] = useState<string | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  return {
    change: (method, path, body, done, then) => {
      setNotice(undefined);
      setProblem(undefined);
      api
        .request(method, path, body)
        .then(() => {
          setNotice(done);
          then?.();
        })
        .catch((error: unknown) => {
          if (!onForbidden(error)) setProblem(problemOf(error));
        });
    },
    outcome: { notice, problem },
  };
}

/** What the last change came to: announced politely when done, as an alert when refused. */
export function Outcome({ outcome }: { readonly outcome: Changes['outcome'] }) {
  return (
    <>
      {outcome.notice === undefined ? null : (
        <p class="notice" role="status">
          {outcome.notice}
        </p>
      )}
      {outcome.problem === undefined ? null : <ProblemNotice problem={outcome.problem} />}
    </>
  );
}

/** A form of one text field and its button: a name to add (a member, a role). */
export function OneFieldForm({
  id,
  label,
  submit,
  onSubmit,
}: {
  readonly id: string;
  readonly label: string;
  readonly submit: string;
  readonly onSubmit: (value: string) => void;
}) {
  const [value, setValue] = useState('');
  return (
    <form
      class="stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim() === '') return;
        onSubmit(value.trim());
        setValue('');
      }}
    >
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        required
        autoComplete="off"
        spellcheck={false}
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit" class="button secondary">
        {submit}
      </button>
    </form>
  );
}

/** A search of a list the admin API answers whole (groups, roles, organizations): narrowed as typed. */
export function NameSearch({
  id,
  label,
  value,
  onInput,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onInput: (value: string) => void;
}) {
  const { t } = useText();
  return (
    <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
      <div class="field">
        <label for={id}>{label}</label>
        <input
          id={id}
          type="search"
          maxLength={64}
          spellcheck={false}
          autoComplete="off"
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} class="hint">
          {t('common.search.hint')}
        </p>
      </div>
    </form>
  );
}

/** Whether `text` holds what the operator searched, ignoring case. */
export function matches(search: string, ...texts: readonly (string | null | undefined)[]): boolean {
  const wanted = search.trim().toLowerCase();
  return wanted === '' || texts.some((text) => text?.toLowerCase().includes(wanted) === true);
}
