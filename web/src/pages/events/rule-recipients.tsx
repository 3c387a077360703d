import { TextField } from './form-fields';
import { splitList } from './rule-checks';
import type { FieldErrors, RuleDraft } from './rule-model';

interface Props {
  draft: RuleDraft;
  errors: FieldErrors;
  change: (patch: Partial<RuleDraft>, ...fields: string[]) => void;
  smsEnabled: boolean;
}

/**
 * Step 3, second part: who is told. E-mail goes through the server's SMTP; SMS and the two
 * messenger channels through the HTTP gateways the operator set up, each recipient passed on as
 * the gateway's `to`; the API channel POSTs the event to the customer's address.
 */
export function RuleRecipients({ draft, errors, change, smsEnabled }: Props) {
  return (
    <fieldset>
      <legend>Notifications</legend>
      <TextField
        field="emails"
        label="E-mail addresses"
        multiline
        inputMode="email"
        value={draft.emails}
        errors={errors}
        hint="One per line, or separated by commas."
        onValue={(emails) => change({ emails }, 'emails')}
      />
      {smsEnabled ? (
        <TextField
          field="smsPhones"
          label="SMS phones"
          multiline
          inputMode="tel"
          value={draft.smsPhones}
          errors={errors}
          hint="One per line, or separated by commas, with the country code: +7 900 123-45-67."
          onValue={(smsPhones) => change({ smsPhones }, 'smsPhones')}
        />
      ) : (
        <p class="note">
          SMS: the account has no SMS option. It is a paid option; ask your service provider to enable it.
          {draft.smsPhones.trim() !== '' && ` This event’s SMS phones (${splitList(draft.smsPhones).join(', ')}) are dropped when you press Done.`}
        </p>
      )}
      <TextField
        field="messengerUserIDs"
        label="Messenger users (bot)"
        multiline
        inputMode="numeric"
        value={draft.messengerUserIDs}
        errors={errors}
        hint="User ids in the messenger, as numbers, one per line or separated by commas. Each user must have connected the service’s messenger bot, or the message cannot reach them."
        onValue={(messengerUserIDs) => change({ messengerUserIDs }, 'messengerUserIDs')}
      />
      <TextField
        field="messenger2UserIDs"
        label="Messenger users (second channel)"
        multiline
        inputMode="numeric"
        value={draft.messenger2UserIDs}
        errors={errors}
        hint="User ids on the second messenger channel, as numbers, one per line or separated by commas."
        onValue={(messenger2UserIDs) => change({ messenger2UserIDs }, 'messenger2UserIDs')}
      />
      <p class="hint">
        Messenger messages go through the gateways the operator of this server set up; a channel without one fails its messages, and the Deliveries tab
        shows them.
      </p>
      <label class="inline">
        <input type="checkbox" checked={draft.sendToApi} onChange={(e) => change({ sendToApi: e.currentTarget.checked }, 'apiUrl')} />
        Send to API
      </label>
      {draft.sendToApi && (
        <TextField
          field="apiUrl"
          label="Customer address"
          type="url"
          inputMode="url"
          value={draft.apiUrl}
          errors={errors}
          hint="The address of your system, https://…: it receives each event as a POST with a JSON body, signed with the account’s signing secret."
          onValue={(apiUrl) => change({ apiUrl }, 'apiUrl')}
        />
      )}
    </fieldset>
  );
}
