import { useEffect, useState } from 'preact/hooks';
import { t, untranslated } from '../i18n/i18n';
import type { AppTask as Task, FormField } from './device-api';
import { fieldKind, fieldProblem } from './field-rules';
import { downscalePicture } from './picture-scaling';

/** The form as the employee saved it: text values, and the pictures and files to upload first. */
export interface FilledForm {
  values: { externalID: string; value: string | null }[];
  files: { externalID: string; blob: Blob; name: string }[];
}

/** Files larger than this are refused on the phone (the server has its own limit). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The task's custom-field template as a form: one input per field of the type it has, checked as
 * the server checks before it is queued. Pictures come from the camera and are made small first.
 */
export function TaskForm({ task, fields, onSave }: { task: Task; fields: FormField[] | null; onSave: (form: FilledForm) => Promise<void> }) {
  const initial = () => Object.fromEntries(task.customFieldFormItems.map((item) => [item.externalID, item.value ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [files, setFiles] = useState<Record<string, { blob: Blob; name: string; preview: string | null }>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => () => Object.values(files).forEach((file) => file.preview && URL.revokeObjectURL(file.preview)), [files]);

  if (fields === null) return <p class="m-note">{t('mobile.formUnavailable')}</p>;
  if (fields.length === 0) return null;

  const set = (id: string, value: string) => setValues((current) => ({ ...current, [id]: value }));

  const pick = async (field: FormField, input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    setNote(null);
    try {
      const picture = fieldKind(field) === 'picture';
      const blob = picture ? await downscalePicture(chosen) : chosen;
      if (blob.size > MAX_FILE_BYTES) {
        setProblems((current) => ({ ...current, [field.externalID]: t('mobile.fileTooLarge') }));
        return;
      }
      const name = picture ? chosen.name.replace(/\.[^.]*$/, '') + '.jpg' : chosen.name;
      const preview = picture ? URL.createObjectURL(blob) : null;
      setFiles((current) => ({ ...current, [field.externalID]: { blob, name, preview } }));
      setProblems(({ [field.externalID]: _dropped, ...rest }) => rest);
    } catch {
      setProblems((current) => ({ ...current, [field.externalID]: t('mobile.pictureUnreadable') }));
    }
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const filled: FilledForm = { values: [], files: [] };
    for (const field of fields) {
      const kind = fieldKind(field);
      const raw = (values[field.externalID] ?? '').trim();
      const value = kind === 'double' ? raw.replace(',', '.') : raw;
      const file = files[field.externalID];
      const problem = fieldProblem(field, value || null, Boolean(file));
      if (problem) found[field.externalID] = t(problem);
      if (file) filled.files.push({ externalID: field.externalID, blob: file.blob, name: file.name });
      else if (kind !== 'picture' && kind !== 'file') filled.values.push({ externalID: field.externalID, value: value || null });
    }
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setNote(t('mobile.formHasProblems'));
      return;
    }
    setBusy(true);
    try {
      await onSave(filled);
      setFiles({});
      setNote(t('mobile.formSaved'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="m-form" aria-labelledby="m-form-title" onSubmit={(event) => void save(event)} noValidate>
      <h2 id="m-form-title">{t('mobile.form')}</h2>
      {fields.map((field) => {
        const id = `m-field-${field.externalID}`;
        const kind = fieldKind(field);
        const value = values[field.externalID] ?? '';
        const problem = problems[field.externalID];
        const onInput = (event: Event) => set(field.externalID, (event.target as HTMLInputElement).value);
        const common = { id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': problem ? `${id}-problem` : undefined, required: field.isRequired };
        let control;
        switch (kind) {
          case 'text':
            control = <textarea {...common} rows={3} value={value} onInput={onInput} />;
            break;
          case 'date':
          case 'time':
            control = <input {...common} type={kind} value={value} onInput={onInput} />;
            break;
          case 'integer':
            control = <input {...common} type="text" inputMode="numeric" value={value} onInput={onInput} />;
            break;
          case 'double':
            control = <input {...common} type="text" inputMode="decimal" value={value} onInput={onInput} />;
            break;
          case 'boolean':
            control = (
              <select {...common} value={value.toLowerCase()} onChange={onInput}>
                <option value="">{t('mobile.notAnswered')}</option>
                <option value="true">{t('mobile.yes')}</option>
                <option value="false">{t('mobile.no')}</option>
              </select>
            );
            break;
          case 'select':
            control = (
              <select {...common} value={value} onChange={onInput}>
                <option value="">{t('mobile.notAnswered')}</option>
                {(field.values ?? []).map((choice) => (
                  <option key={choice} value={choice} {...untranslated}>
                    {choice}
                  </option>
                ))}
              </select>
            );
            break;
          case 'picture':
          case 'file': {
            const file = files[field.externalID];
            control = (
              <>
                <input
                  {...common}
                  type="file"
                  {...(kind === 'picture' ? { accept: 'image/*', capture: 'environment' } : {})}
                  onChange={(event) => void pick(field, event.target as HTMLInputElement)}
                />
                {file?.preview && <img class="m-preview" src={file.preview} alt={t('mobile.picturePreview')} />}
                {!file && value && <span class="m-note">{t('mobile.fileAttached')}</span>}
              </>
            );
            break;
          }
          default:
            control = <input {...common} type="text" value={value} onInput={onInput} />;
        }
        return (
          <div class="m-field" key={field.externalID}>
            <label for={id} {...untranslated}>
              {field.name}
              {field.isRequired && <span aria-hidden="true"> *</span>}
            </label>
            {control}
            {problem && (
              <span id={`${id}-problem`} class="m-problem">
                {problem}
              </span>
            )}
          </div>
        );
      })}
      {note && (
        <p class="m-note" role="status">
          {note}
        </p>
      )}
      <button type="submit" class="m-button m-button-save" disabled={busy}>
        {t('mobile.saveForm')}
      </button>
    </form>
  );
}
