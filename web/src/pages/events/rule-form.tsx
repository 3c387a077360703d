import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiFailure, describe } from '../../api';
import { navigate } from '../../router';
import { useSessionInfo } from '../../session';
import type { Employee } from '../../types';
import { ErrorAlert } from '../../ui/messages';
import { CheckList, draftText, fieldId, FieldSet, TextField, type FormPartProps } from './form-fields';
import { KindParameters } from './kind-parameters';
import { RECIPIENT_LISTS, RuleRecipients } from './rule-recipients';
import { rememberSaved } from './saved-rule';
import { checkName, ruleOf, serverErrors } from './rule-checks';
import { RULE_KINDS } from '../../generated/kinds';
import { draftOf, emptyDraft, RULES, WEEKDAYS, type EventRule, type FieldErrors, type RuleDraft } from './rule-model';
import { matchesWords, searchWords } from '../../../../src/http/free-text';
import { t, type PlainKey } from '../../i18n/i18n';

const SUBSCRIBERS = '/v6/api/subscriberManagement/subscribers';

/** `#/events/new` and `#/events/<id>`: interface 6.1 steps 1 to 4, in its order, Done to save. */
export function RuleForm({ eventID }: { eventID: number | null }) {
  const session = useSessionInfo();
  const [draft, setDraft] = useState<RuleDraft | null>(eventID === null ? emptyDraft() : null);
  const [employees, setEmployees] = useState<Employee[] | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [loadFailure, setLoadFailure] = useState('');
  const [failure, setFailure] = useState('');
  const [attempts, setAttempts] = useState(0);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const summary = useRef<HTMLDivElement>(null);

  // A view that opens puts the keyboard at its heading.
  useLayoutEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    api
      .get<Employee[]>(`${SUBSCRIBERS}?withCustomTemplateItems=false`)
      .then(setEmployees)
      .catch((error: unknown) => setLoadFailure(t('rules.employeesFailed', { reason: describe(error) })));
    if (eventID !== null) {
      api
        .get<EventRule>(`${RULES}/${eventID}`)
        .then((rule) => setDraft(draftOf(rule)))
        .catch((error: unknown) => setLoadFailure(t('rules.oneFailed', { reason: describe(error) })));
    }
  }, [eventID]);

  // After a refused Done, the summary takes the focus: it lists what to mend, each a way to its field.
  useLayoutEffect(() => {
    if (attempts > 0) summary.current?.focus();
  }, [attempts]);

  /** Applies a change and forgets the errors of the fields it touched. */
  const change = (patch: Partial<RuleDraft>, ...fields: string[]) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    if (fields.some((f) => errors[f])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([key]) => !fields.includes(key))));
  };

  const changeName = (name: string) => {
    setDraft((d) => (d ? { ...d, name } : d));
    // The backslash is refused as it is typed (interface 8), not only at Done.
    const problem = name.includes('\\') ? checkName(name) : null;
    setErrors((e) => {
      const { name: _old, ...rest } = e;
      return problem ? { ...rest, name: problem } : rest;
    });
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!draft || busy) return;
    setFailure('');
    const checked = ruleOf(draft, session.account.smsEnabled);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setAttempts((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      if (eventID === null) {
        const created = await api.post<EventRule>(RULES, checked.rule);
        rememberSaved(created.eventID, created.name, 'created');
      } else {
        await api.put(`${RULES}/${eventID}`, checked.rule);
        rememberSaved(eventID, checked.rule.name, 'changed');
      }
      navigate('events');
    } catch (error) {
      const fields = error instanceof ApiFailure ? error.envelope.validationErrors : undefined;
      setErrors(fields ? serverErrors(fields, checked.rule) : {});
      if (!fields) setFailure(describe(error));
      setAttempts((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  const title = eventID === null ? t('rules.new') : t('rules.edit');
  const part: FormPartProps | null = draft && { draft, errors, change };
  return (
    <section aria-labelledby="events-title" class="rule-form">
      <p>
        <a href="#/events">{t('rules.back')}</a>
      </p>
      <h1 id="events-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      <ErrorAlert message={loadFailure} />
      {!part ? (
        !loadFailure && <p class="muted">{t('app.loading')}</p>
      ) : (
        <form onSubmit={submit} noValidate aria-labelledby="events-title">
          <KindChoice {...part} />
          <TextField field="name" label={t('rules.name')} value={part.draft.name} errors={errors} onValue={changeName} hint={t('rules.nameHint')} />
          <Employees {...part} employees={employees} />
          <KindParameters {...part} />
          <Schedule {...part} timeZone={session.account.timeZone} />
          <RuleRecipients {...part} smsEnabled={session.account.smsEnabled} />
          {attempts > 0 && <ErrorSummary errors={errors} failure={failure} summary={summary} />}
          <div class="form-actions">
            <button type="submit" aria-disabled={busy ? true : undefined}>
              {busy ? t('rules.saving') : t('rules.done')}
            </button>
            <a href="#/events">{t('common.cancel')}</a>
          </div>
        </form>
      )}
    </section>
  );
}

/** Step 1: the kind, in words; arrow keys move between the choices. */
function KindChoice({ draft, errors, change }: FormPartProps) {
  return (
    <FieldSet field="kind" legend={t('rules.kind')} class="kinds" errors={errors}>
      <div class="kind-options">
        {RULE_KINDS.map(({ kind, label: labelKey }) => (
          <label class="inline" key={kind}>
            <input type="radio" name="kind" value={String(kind)} checked={draft.kind === kind} onChange={() => change({ kind }, 'kind')} />
            {t(labelKey)}
          </label>
        ))}
      </div>
    </FieldSet>
  );
}

function Employees({ employees, draft, errors, change }: FormPartProps & { employees: Employee[] | null }) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const sorted = [...(employees ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    const words = searchWords(filter);
    return words.length > 0 ? sorted.filter((e) => matchesWords(e.name, words) || draft.subscriberIDs.includes(e.subscriberID)) : sorted;
  }, [employees, filter, draft.subscriberIDs]);
  if (employees === null) return <p class="muted">{t('rules.loadingEmployees')}</p>;
  const count = draft.subscriberIDs.length;
  const hint = count === 0 ? t('rules.noneChecked') : t('rules.checked', { count });
  return (
    <div class="employees">
      {employees.length > 8 && (
        <div class="field">
          <label for="rule-employee-filter">{t('rules.findEmployees')}</label>
          <input id="rule-employee-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </div>
      )}
      <CheckList
        field="subscriberIDs"
        legend={t('rules.employees')}
        hint={hint}
        items={shown.map((e) => ({ value: e.subscriberID, label: e.name }))}
        checked={draft.subscriberIDs}
        errors={errors}
        onChange={(subscriberIDs) => change({ subscriberIDs }, 'subscriberIDs')}
      />
    </div>
  );
}

/** Step 3, first part: validity period, weekdays and daily window, all in the account's zone. */
function Schedule(part: FormPartProps & { timeZone: string }) {
  const { draft, errors, change, timeZone } = part;
  return (
    <>
      <fieldset>
        <legend>{t('rules.validityTitle')}</legend>
        <label class="inline">
          <input type="checkbox" checked={draft.unlimited} onChange={(e) => change({ unlimited: e.currentTarget.checked }, 'validFrom', 'validTo')} />
          {t('rules.unlimited')}
        </label>
        {!draft.unlimited && (
          <div class="pair">
            <TextField {...draftText(part, 'validFrom')} label={t('rules.validFrom')} type="datetime-local" hint={t('rules.validFromHint', { zone: timeZone })} />
            <TextField {...draftText(part, 'validTo')} label={t('rules.validTo')} type="datetime-local" hint={t('rules.validToHint')} />
          </div>
        )}
      </fieldset>
      <CheckList
        field="weekdays"
        legend={t('rules.weekdays')}
        inline
        items={WEEKDAYS.map((w) => ({ value: w.day, label: w.short() }))}
        checked={draft.weekdays}
        errors={errors}
        onChange={(weekdays) => change({ weekdays }, 'weekdays')}
      />
      <FieldSet
        field="window"
        legend={t('rules.window')}
        errors={errors}
        hint={t('rules.windowHint', { zone: timeZone })}
      >
        <div class="pair">
          <TextField {...draftText(part, 'timeFrom')} label={t('rules.from')} type="time" />
          <TextField {...draftText(part, 'timeTo')} label={t('rules.to')} type="time" />
        </div>
      </FieldSet>
    </>
  );
}

const LABELS: Record<string, PlainKey> = {
  kind: 'rules.kind',
  name: 'rules.name',
  subscriberIDs: 'rules.employees',
  'parameters.zoneIDs': 'rules.zones',
  'parameters.zoneGroupIDs': 'rules.zoneGroups',
  'parameters.on': 'rules.fires',
  validFrom: 'rules.validFrom',
  validTo: 'rules.validTo',
  weekdays: 'rules.weekdays',
  timeFrom: 'rules.from',
  timeTo: 'rules.to',
  apiUrl: 'rules.apiUrl',
};
for (const [field, list] of Object.entries(RECIPIENT_LISTS)) LABELS[field] = list.label;
for (const { numbers } of RULE_KINDS) for (const p of numbers) LABELS[`parameters.${p.key}`] = p.label;

const labelOf = (field: string) => {
  const key = LABELS[field];
  return key ? t(key) : field;
};

/** Moves the focus to a field, or to the first control of a group. */
function focusField(field: string) {
  const element = document.getElementById(fieldId(field));
  const target = element instanceof HTMLFieldSetElement ? element.querySelector<HTMLElement>('input, select, textarea') : element;
  target?.focus();
}

/** What stopped the last Done: every error, each a button to its field when the form shows it. */
function ErrorSummary({ errors, failure, summary }: { errors: FieldErrors; failure: string; summary: { current: HTMLDivElement | null } }) {
  const entries = Object.entries(errors);
  if (entries.length === 0 && !failure) return null;
  return (
    <div class="error-summary" role="alert" tabIndex={-1} ref={summary}>
      <p>
        <strong>{t('rules.notSaved')}</strong>
        {entries.length > 0 && t('rules.mend')}
      </p>
      {failure && <p>{failure}</p>}
      {entries.length > 0 && (
        <ul>
          {entries.map(([field, message]) => (
            <li key={field}>
              {document.getElementById(fieldId(field)) ? (
                <button type="button" class="link" onClick={() => focusField(field)}>
                  {labelOf(field)}: {message}
                </button>
              ) : (
                `${labelOf(field)}: ${message}`
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
