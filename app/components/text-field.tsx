/**
 * A labelled input (or textarea) of a form, with its error beside it and tied to it for screen
 * readers: what a failed post shows again with the value it kept.
 */
export function TextField({
  name,
  label,
  value,
  error,
  autoComplete,
  multiline = false,
}: {
  readonly name: string;
  readonly label: string;
  readonly value: string | undefined;
  readonly error: string | undefined;
  readonly autoComplete?: string;
  readonly multiline?: boolean;
}) {
  const described = error === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': `${name}-error` };
  const field = { id: name, name, defaultValue: value ?? '', ...described };
  return (
    <p>
      <label htmlFor={name}>{label}</label>
      {multiline ? <textarea rows={3} {...field} /> : <input autoComplete={autoComplete} {...field} />}
      {error === undefined ? null : (
        <span id={`${name}-error`} className="field-error">
          {error}
        </span>
      )}
    </p>
  );
}
