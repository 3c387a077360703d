import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import type { FieldErrors } from './rule-model';

/*
 * Every field of the rule form: a <label> for its name, then its hint and its error, both tied to
 * the control by aria-describedby. Ids come from the server's field names, so an error the server
 * names (`parameters.speedLimit`) finds its field.
 */

export const fieldId = (field: string) => `rule-${field.replace(/[^\w-]/g, '-')}`;
const hintId = (field: string) => `${fieldId(field)}-hint`;
const errorId = (field: string) => `${fieldId(field)}-error`;

/** aria-describedby for a field: its hint, if it has one, and its error, when there is one. */
export function describedBy(field: string, errors: FieldErrors, hasHint: boolean): string | undefined {
  const ids = [hasHint ? hintId(field) : null, errors[field] ? errorId(field) : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function Hint({ field, children }: { field: string; children: ComponentChildren }) {
  return (
    <p id={hintId(field)} class="hint">
      {children}
    </p>
  );
}

export function FieldError({ field, errors }: { field: string; errors: FieldErrors }) {
  const message = errors[field];
  if (!message) return null;
  return (
    <p id={errorId(field)} class="error field-error">
      {message}
    </p>
  );
}

interface TextFieldProps {
  field: string;
  label: string;
  value: string;
  errors: FieldErrors;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  type?: 'text' | 'number' | 'url' | 'time' | 'datetime-local';
  multiline?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'email' | 'tel' | 'url';
  autoComplete?: string;
  step?: string;
}

/** A labelled input or textarea with its hint and error. */
export function TextField({ field, label, value, errors, onValue, hint, type = 'text', multiline, inputMode, autoComplete, step }: TextFieldProps) {
  const id = fieldId(field);
  const common = {
    id,
    name: field,
    value,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': describedBy(field, errors, hint !== undefined),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={3} inputMode={inputMode} onInput={(e) => onValue(e.currentTarget.value)} />
      ) : (
        <input
          // Preact's types tell inputs apart by a literal `type`; this one is chosen at run time.
          {...({ ...common, type, step, inputMode, autoComplete: autoComplete ?? 'off' } as InputHTMLAttributes)}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
      {hint !== undefined && <Hint field={field}>{hint}</Hint>}
      <FieldError field={field} errors={errors} />
    </div>
  );
}

interface CheckListProps<T extends string | number> {
  field: string;
  legend: string;
  items: { value: T; label: string }[];
  checked: T[];
  errors: FieldErrors;
  onChange: (checked: T[]) => void;
  hint?: ComponentChildren;
  /** Laid out in a row (weekdays) rather than a scrolling column (employees, zones). */
  inline?: boolean;
}

/** A fieldset of checkboxes, its legend naming the group. */
export function CheckList<T extends string | number>({ field, legend, items, checked, errors, onChange, hint, inline }: CheckListProps<T>) {
  const toggle = (value: T, on: boolean) => onChange(on ? [...checked, value] : checked.filter((v) => v !== value));
  return (
    <fieldset id={fieldId(field)} aria-describedby={describedBy(field, errors, hint !== undefined)}>
      <legend>{legend}</legend>
      {hint !== undefined && <Hint field={field}>{hint}</Hint>}
      <FieldError field={field} errors={errors} />
      <ul class={inline ? 'checks inline-checks' : 'checks'}>
        {items.map((item) => (
          <li key={item.value}>
            <label class="inline">
              <input type="checkbox" checked={checked.includes(item.value)} onChange={(e) => toggle(item.value, e.currentTarget.checked)} />
              {item.label}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
