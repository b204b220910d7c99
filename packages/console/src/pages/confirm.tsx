import { useState } from 'preact/hooks';
import { useText } from '../text.js';

/**
 * A destructive action done on a second click: the first turns the button into its confirmation
 * (announced to screen readers), the second acts. Moving away (blur) disarms it.
 */
export function SecondClick({
  label,
  confirm,
  onConfirm,
}: {
  readonly label: string;
  readonly confirm: string;
  readonly onConfirm: () => void;
}) {
  const [armed, setArmed] = useState(false);
  return (
    <button
      type="button"
      class={armed ? 'button danger' : 'button secondary'}
      aria-live="polite"
      onClick={() => {
        if (!armed) setArmed(true);
        else {
          setArmed(false);
          onConfirm();
        }
      }}
      onBlur={() => setArmed(false)}
    >
      {armed ? confirm : label}
    </button>
  );
}

/** A destructive action confirmed by typing the object's name: the button acts only once it matches. */
export function TypedConfirm({
  id,
  name,
  submit,
  onConfirm,
}: {
  readonly id: string;
  readonly name: string;
  readonly submit: string;
  readonly onConfirm: () => void;
}) {
  const { t } = useText();
  const [typed, setTyped] = useState('');
  return (
    <form
      class="confirm stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (typed === name) {
          setTyped('');
          onConfirm();
        }
      }}
    >
      <label for={id}>{t('common.type-to-confirm', { name })}</label>
      <input id={id} type="text" autoComplete="off" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
      <button type="submit" class="button danger" disabled={typed !== name}>
        {submit}
      </button>
    </form>
  );
}
