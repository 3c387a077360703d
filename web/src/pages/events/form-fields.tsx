import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { describedBy, Field, FieldError, Hint } from '../../ui/field';
import type { FieldErrors, RuleDraft } from './rule-model';

/*
 * The rule form's fields, on the workspace's Field. Ids come from the server's field names, so an
 * error the server names (`parameters.speedLimit`) finds its field.
 */

export const fieldId = (field: string) => `rule-${field.replace(/[^\w-]/g, '-')}`;

/** What each part of the form gets: the draft, its errors, and the change that forgets the errors of the fields it names. */
export interface FormPartProps {
  draft: RuleDraft;
  errors: FieldErrors;
  change: (patch: Partial<RuleDraft>, ...fields: string[]) => void;
}

/** The draft's fields held as text. */
export type TextKey = { [K in keyof RuleDraft]: RuleDraft[K] extends string ? K : never }[keyof RuleDraft];

/** A TextField's field, value, errors and onValue for the draft's text field of that name. */
export function draftText({ draft, errors, change }: FormPartProps, field: TextKey) {
  return { field, value: draft[field], errors, onValue: (value: string) => change({ [field]: value } as Partial<RuleDraft>, field) };
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
  return (
    <Field id={fieldId(field)} label={label} hint={hint} error={errors[field]}>
      {(control) =>
        multiline ? (
          <textarea {...control} name={field} value={value} rows={3} inputMode={inputMode} onInput={(e) => onValue(e.currentTarget.value)} />
        ) : (
          <input
            // Preact's types tell inputs apart by a literal `type`; this one is chosen at run time.
            {...({ ...control, name: field, value, type, step, inputMode, autoComplete: autoComplete ?? 'off' } as InputHTMLAttributes)}
            onInput={(e) => onValue(e.currentTarget.value)}
          />
        )
      }
    </Field>
  );
}

interface FieldSetProps {
  field: string;
  legend: string;
  errors: FieldErrors;
  hint?: ComponentChildren;
  class?: string;
  children: ComponentChildren;
}

/** A group of controls (checkboxes, radios, fields) as one field: its legend, hint and error. */
export function FieldSet({ field, legend, errors, hint, class: className, children }: FieldSetProps) {
  const id = fieldId(field);
  return (
    <fieldset id={id} class={className} aria-describedby={describedBy(id, errors[field], hint !== undefined)}>
      <legend>{legend}</legend>
      {hint !== undefined && <Hint id={id}>{hint}</Hint>}
      <FieldError id={id} message={errors[field]} />
      {children}
    </fieldset>
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
    <FieldSet field={field} legend={legend} errors={errors} hint={hint}>
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
    </FieldSet>
  );
}
