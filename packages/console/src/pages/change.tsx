import { useState } from 'preact/hooks';
import type { AdminApi, Problem } from '../admin.js';
import { useRouter } from '../router.js';
import { SecondClick, TypedConfirm } from './confirm.js';
import { TextField } from './fields.js';
import { ProblemNotice, problemOf } from './problem.js';
import { whenFresh } from './step-up.js';

/** A change an operator makes through the admin API, and what it came to: a notice, or the API's refusal. */
export interface Changes {
  /**
   * Sends the change; on success shows `done` and runs `then` (a reload, a move to another page, which
   * receives `done` to show there).
   */
  readonly change: (method: string, path: string, body: unknown, done: string, then?: (done: string) => void) => void;
  readonly outcome: { readonly notice: string | undefined; readonly problem: Problem | undefined };
}

/** The first notice shown is the one the move to this page carried (a deletion made on the page left). */
export function useChanges(api: AdminApi, onForbidden: (error: unknown) => boolean): Changes {
  const { notice: carried } = useRouter();
  const [notice, setNotice] = useState<string | undefined>(carried);
  const [problem, setProblem] = useState<Problem | undefined>();
  return {
    change: (method, path, body, done, then) => {
      setNotice(undefined);
      setProblem(undefined);
      api
        .request(method, path, body)
        .then(() => {
          setNotice(done);
          then?.(done);
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
      <TextField id={id} label={label} value={value} onInput={setValue} required />
      <button type="submit" class="button secondary">
        {submit}
      </button>
    </form>
  );
}

/** One change, made on a second click (a member removed, a role taken back). */
export interface ChangeRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** What the console says once it is made. */
  readonly done: string;
}

/** A button whose second click makes `request`, then runs `then` (a reload). */
export function ChangeButton({
  changes,
  label,
  confirm,
  request,
  then,
}: {
  readonly changes: Changes;
  readonly label: string;
  readonly confirm: string;
  readonly request: ChangeRequest;
  readonly then: () => void;
}) {
  const { method, path, body, done } = request;
  return (
    <SecondClick label={label} confirm={confirm} onConfirm={() => changes.change(method, path, body, done, then)} />
  );
}

/**
 * The deletion of an object (a group, a role, an organization): acts once its name is typed and on a
 * recent sign-in (step-up.ts), then goes back to the list at `back`, which says `done`.
 */
export function DeleteSection({
  api,
  changes,
  id,
  title,
  hint,
  name,
  path,
  done,
  back,
}: {
  readonly api: AdminApi;
  readonly changes: Changes;
  readonly id: string;
  readonly title: string;
  readonly hint: string;
  readonly name: string;
  /** The admin API's path of the object. */
  readonly path: string;
  readonly done: string;
  readonly back: string;
}) {
  const router = useRouter();
  return (
    <section class="panel panel-wide" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="hint">{hint}</p>
      <TypedConfirm
        id={id}
        name={name}
        submit={title}
        onConfirm={() =>
          whenFresh(api, router.path, () =>
            changes.change('DELETE', path, undefined, done, (notice) => router.go(back, notice)),
          )
        }
      />
    </section>
  );
}
