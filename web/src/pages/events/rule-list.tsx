import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../../api';
import { navigate } from '../../router';
import type { Employee } from '../../types';
import { ConfirmStep, useConfirmStep } from '../../ui/confirm';
import { ErrorAlert, StatusLine } from '../../ui/messages';
import { kindLabel, RULES, type EventRule } from './rule-model';
import { takeSaved } from './saved-rule';

/** `#/events`: the account's rules, each with Edit, Switch off/on and Delete. */
export function RuleList() {
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
  useEffect(() => {
    // Rows wait for the employees' names; without them (a failed read) the column shows ids.
    const employees = api.get<Employee[]>('/v6/api/subscriberManagement/subscribers?withCustomTemplateItems=false').catch(() => []);
    Promise.all([api.get<EventRule[]>(RULES), employees])
      .then(([all, people]) => {
        setNames(new Map(people.map((e) => [e.subscriberID, e.name])));
        setRules(all);
      })
      .catch((error: unknown) => setFailure(`The events could not be loaded: ${describe(error)}`));
  }, []);

  const switchRule = async (rule: EventRule) => {
    setFailure('');
    try {
      await api.patch(`${RULES}/${rule.eventID}`, { enabled: !rule.enabled });
      setRules((all) => all?.map((r) => (r.eventID === rule.eventID ? { ...r, enabled: !rule.enabled } : r)) ?? null);
      setStatus(`“${rule.name}” switched ${rule.enabled ? 'off' : 'on'}.`);
    } catch (error) {
      setFailure(`“${rule.name}” was not switched ${rule.enabled ? 'off' : 'on'}: ${describe(error)}`);
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
      setFailure(`“${rule.name}” was not deleted: ${describe(error)}`);
    }
  };

  return (
    <section aria-labelledby="events-title" class="rule-list">
      <div class="list-head">
        <h1 id="events-title" tabIndex={-1} ref={heading}>
          Events
        </h1>
        <button type="button" onClick={() => navigate('events', 'new')}>
          New event
        </button>
      </div>
      <StatusLine class="ok" message={status} />
      <ErrorAlert message={failure} />
      {rules === null ? (
        !failure && <p class="muted">Loading…</p>
      ) : rules.length === 0 ? (
        <p class="muted">No events yet. New event sets up what is watched and who is told.</p>
      ) : (
        <table class="rules">
          <caption class="visually-hidden">Event rules of the account</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Employees</th>
              <th scope="col">Channels</th>
              <th scope="col">Enabled</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
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
    rule.subscriberIDs.length === 0 ? 'All employees' : rule.subscriberIDs.map((id) => names.get(id) ?? `Employee ${id}`).join(', ');
  return (
    <tr ref={row} class={justSaved ? 'just-saved' : undefined}>
      <td data-label="Name" id={nameId}>
        {rule.name}
      </td>
      <td data-label="Kind">{kindLabel(rule.kind)}</td>
      <td data-label="Employees">{employees}</td>
      <td data-label="Channels">{channelsOf(rule)}</td>
      <td data-label="Enabled">{rule.enabled ? 'Yes' : 'No'}</td>
      <td class="actions">
        {deleting.asking ? (
          // The question takes the focus on its safe answer.
          <ConfirmStep question={`Delete “${rule.name}”?`} confirm="Yes, delete" cancel="Cancel" onConfirm={() => act(() => onDelete(rule))} onCancel={deleting.cancel} />
        ) : (
          <>
            <button type="button" class="secondary" aria-describedby={nameId} onClick={() => navigate('events', rule.eventID)}>
              Edit
            </button>
            <button type="button" class="secondary" aria-describedby={nameId} onClick={() => act(() => onSwitch(rule))}>
              {rule.enabled ? 'Switch off' : 'Switch on'}
            </button>
            <button type="button" class="danger" aria-describedby={nameId} ref={deleting.askButton} onClick={deleting.ask}>
              Delete
            </button>
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
    count(rule.emails.length, 'e-mail', 'e-mails'),
    count(rule.smsPhones.length, 'SMS phone', 'SMS phones'),
    count(rule.messengerUserIDs.length, 'bot user', 'bot users'),
    count(rule.messenger2UserIDs.length, 'second-channel user', 'second-channel users'),
  ].filter(Boolean);
  return channels.length > 0 ? channels.join(', ') : 'None';
}

const count = (n: number, one: string, many: string) => (n === 0 ? null : `${n} ${n === 1 ? one : many}`);
