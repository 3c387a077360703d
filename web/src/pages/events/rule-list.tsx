import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useCan } from '../../session';
import { api, describe } from '../../api';
import { navigate } from '../../router';
import type { Employee } from '../../types';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { ErrorAlert, LoadFailure, StatusLine } from '../../ui/messages';
import { kindLabel, RULES, type EventRule } from './rule-model';
import { takeSaved } from './saved-rule';
import { t } from '../../i18n/i18n';

/** `#/events`: the account's rules, each with Edit, Switch off/on and Delete. */
export function RuleList() {
  const canEdit = useCan('edit');
  const [rules, setRules] = useState<EventRule[] | null>(null);
  const [names, setNames] = useState<Map<number, string>>(new Map());
  const [saved] = useState(takeSaved);
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  // A view that opens puts the keyboard at its heading.
  useLayoutEffect(() => heading.current?.focus(), []);
  // Said after the first render, into the (then empty) live region, so that it is announced.
  useEffect(() => {
    if (saved) setStatus(`Saved “${saved.name}”.`);
  }, [saved]);
  const [loadFailure, setLoadFailure] = useState('');
  const load = () => {
    setLoadFailure('');
    // Rows wait for the employees' names; without them (a failed read) the column shows ids.
    const employees = api.get<Employee[]>('/v6/api/subscriberManagement/subscribers?withCustomTemplateItems=false').catch(() => []);
    Promise.all([api.get<EventRule[]>(RULES), employees])
      .then(([all, people]) => {
        setNames(new Map(people.map((e) => [e.subscriberID, e.name])));
        setRules(all);
      })
      .catch((error: unknown) => setLoadFailure(t('rules.loadFailed', { reason: describe(error) })));
  };
  useEffect(load, []);

  const switchRule = async (rule: EventRule) => {
    setFailure('');
    try {
      await api.patch(`${RULES}/${rule.eventID}`, { enabled: !rule.enabled });
      setRules((all) => all?.map((r) => (r.eventID === rule.eventID ? { ...r, enabled: !rule.enabled } : r)) ?? null);
      setStatus(`“${rule.name}” switched ${rule.enabled ? 'off' : 'on'}.`);
    } catch (error) {
      setFailure(t(rule.enabled ? 'rules.switchFailedOff' : 'rules.switchFailedOn', { name: rule.name, reason: describe(error) }));
    }
  };

  const deleteRule = async (rule: EventRule) => {
    setFailure('');
    try {
      await api.delete(`${RULES}/${rule.eventID}`);
      setRules((all) => all?.filter((r) => r.eventID !== rule.eventID) ?? null);
      setStatus(`“${rule.name}” deleted.`);
      heading.current?.focus();
    } catch (error) {
      setFailure(t('rules.deleteFailed', { name: rule.name, reason: describe(error) }));
    }
  };

  return (
    <section aria-labelledby="events-title" class="rule-list">
      <div class="list-head">
        <h1 id="events-title" tabIndex={-1} ref={heading}>
          {t('rules.title')}
        </h1>
        {canEdit && (
          <button type="button" onClick={() => navigate('events', 'new')}>
            {t('rules.new')}
          </button>
        )}
      </div>
      <StatusLine class="ok" message={status} />
      <ErrorAlert message={failure} />
      <LoadFailure message={loadFailure} onRetry={load} />
      {rules === null ? (
        !loadFailure && <p class="muted">{t('app.loading')}</p>
      ) : rules.length === 0 ? (
        <p class="muted">{t('rules.none')}</p>
      ) : (
        <table class="rules">
          <caption class="visually-hidden">{t('rules.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('rules.name')}</th>
              <th scope="col">{t('rules.kind')}</th>
              <th scope="col">{t('rules.employees')}</th>
              <th scope="col">{t('rules.channels')}</th>
              <th scope="col">{t('rules.enabled')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('rules.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <RuleRow key={rule.eventID} rule={rule} names={names} justSaved={saved?.eventID === rule.eventID} onSwitch={switchRule} onDelete={deleteRule} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

interface RowProps {
  rule: EventRule;
  names: Map<number, string>;
  justSaved: boolean;
  onSwitch: (rule: EventRule) => Promise<void>;
  onDelete: (rule: EventRule) => Promise<void>;
}

function RuleRow({ rule, names, justSaved, onSwitch, onDelete }: RowProps) {
  const canEdit = useCan('edit');
  const deleting = useConfirmStep();
  const busy = useRef(false);
  const row = useRef<HTMLTableRowElement>(null);
  const nameId = `rule-${rule.eventID}-name`;

  useEffect(() => {
    if (justSaved) row.current?.scrollIntoView({ block: 'nearest' });
  }, [justSaved]);
  // Buttons are not disabled while their request runs: a disabled button would drop the keyboard focus.
  const act = async (action: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await action();
    } finally {
      busy.current = false;
    }
  };

  const employees =
    rule.subscriberIDs.length === 0 ? t('rules.allEmployees') : rule.subscriberIDs.map((id) => names.get(id) ?? t('rules.employeeN', { id })).join(', ');
  return (
    <tr ref={row} class={justSaved ? 'just-saved' : undefined}>
      <td data-label={t('rules.name')} id={nameId}>
        {rule.name}
      </td>
      <td data-label={t('rules.kind')}>{kindLabel(rule.kind)}</td>
      <td data-label={t('rules.employees')}>{employees}</td>
      <td data-label={t('rules.channels')}>{channelsOf(rule)}</td>
      <td data-label={t('rules.enabled')}>{rule.enabled ? t('rules.yes') : t('rules.no')}</td>
      <td class="actions">
        {deleting.asking ? (
          // The question takes the focus on its safe answer.
          <ConfirmStep question={t('rules.confirmDelete', { name: rule.name })} confirm={t('rules.yesDelete')} cancel={t('common.cancel')} onConfirm={() => act(() => onDelete(rule))} onCancel={deleting.cancel} />
        ) : (
          <>
            <button type="button" class="secondary" aria-describedby={nameId} onClick={() => navigate('events', rule.eventID)}>
              {t('rules.edit2')}
            </button>
            {canEdit && (
              <>
                <button type="button" class="secondary" aria-describedby={nameId} onClick={() => act(() => onSwitch(rule))}>
                  {rule.enabled ? t('rules.switchOff') : t('rules.switchOn')}
                </button>
                <button type="button" class="danger" aria-describedby={nameId} ref={deleting.askButton} onClick={deleting.ask}>
                  {t('rules.delete')}
                </button>
              </>
            )}
          </>
        )}
      </td>
    </tr>
  );
}

/** The channels a rule notifies, in words. */
function channelsOf(rule: EventRule): string {
  const channels = [
    rule.sendToApi ? 'API' : null,
    rule.emails.length > 0 ? t('rules.emails', { count: rule.emails.length }) : null,
    rule.smsPhones.length > 0 ? t('rules.phones', { count: rule.smsPhones.length }) : null,
    rule.messengerUserIDs.length > 0 ? t('rules.botUsers', { count: rule.messengerUserIDs.length }) : null,
    rule.messenger2UserIDs.length > 0 ? t('rules.secondUsers', { count: rule.messenger2UserIDs.length }) : null,
  ].filter(Boolean);
  return channels.length > 0 ? channels.join(', ') : t('rules.noChannels');
}

