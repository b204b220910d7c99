/** A labelled text field, with a hint read with it when given. */
export function TextField({
  id,
  label,
  hint,
  value,
  onInput,
  required = false,
  maxLength,
}: {
  readonly id: string;
  readonly label: string;
  readonly hint?: string;
  readonly value: string;
  readonly onInput: (value: string) => void;
  readonly required?: boolean;
  readonly maxLength?: number;
}) {
  return (
    <>
      <label for={id}>{label}</label>
      {hint === undefined ? null : (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        type="text"
        required={required}
        maxLength={maxLength}
        autoComplete="off"
        spellcheck={false}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </>
  );
}

/** A set of check boxes, one for each of `options` (shown as code: grant types, role names). */
export function Checks({
  legend,
  options,
  ticked,
  onChange,
}: {
  readonly legend: string;
  readonly options: readonly string[];
  readonly ticked: readonly string[];
  readonly onChange: (ticked: readonly string[]) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class="check">
          <input
            type="checkbox"
            checked={ticked.includes(option)}
            onChange={(e) =>
              onChange(e.currentTarget.checked ? [...ticked, option] : ticked.filter((o) => o !== option))
            }
          />
          <code>{option}</code>
        </label>
      ))}
    </fieldset>
  );
}
