import { draftText, TextField, type FormPartProps, type TextKey } from './form-fields';
import { splitList } from './rule-checks';

type RecipientList = Extract<TextKey, 'emails' | 'smsPhones' | 'messengerUserIDs' | 'messenger2UserIDs'>;

/** The recipient lists, each typed one per line or separated by commas. */
export const RECIPIENT_LISTS: Record<RecipientList, { label: string; inputMode: 'email' | 'tel' | 'numeric'; hint: string }> = {
  emails: { label: 'E-mail addresses', inputMode: 'email', hint: 'One per line, or separated by commas.' },
  smsPhones: { label: 'SMS phones', inputMode: 'tel', hint: 'One per line, or separated by commas, with the country code: +7 900 123-45-67.' },
  messengerUserIDs: {
    label: 'Messenger users (bot)',
    inputMode: 'numeric',
    hint: 'User ids in the messenger, as numbers, one per line or separated by commas. Each user must have connected the service’s messenger bot, or the message cannot reach them.',
  },
  messenger2UserIDs: {
    label: 'Messenger users (second channel)',
    inputMode: 'numeric',
    hint: 'User ids on the second messenger channel, as numbers, one per line or separated by commas.',
  },
};

/**
 * Step 3, second part: who is told. E-mail goes through the server's SMTP; SMS and the two
 * messenger channels through the HTTP gateways the operator set up, each recipient passed on as
 * the gateway's `to`; the API channel POSTs the event to the customer's address.
 */
export function RuleRecipients(part: FormPartProps & { smsEnabled: boolean }) {
  const { draft, change, smsEnabled } = part;
  const list = (field: RecipientList) => <TextField {...draftText(part, field)} {...RECIPIENT_LISTS[field]} multiline />;
  return (
    <fieldset>
      <legend>Notifications</legend>
      {list('emails')}
      {smsEnabled ? (
        list('smsPhones')
      ) : (
        <p class="note">
          SMS: the account has no SMS option. It is a paid option; ask your service provider to enable it.
          {draft.smsPhones.trim() !== '' && ` This event’s SMS phones (${splitList(draft.smsPhones).join(', ')}) are dropped when you press Done.`}
        </p>
      )}
      {list('messengerUserIDs')}
      {list('messenger2UserIDs')}
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
          {...draftText(part, 'apiUrl')}
          label="Customer address"
          type="url"
          inputMode="url"
          hint="The address of your system, https://…: it receives each event as a POST with a JSON body, signed with the account’s signing secret."
        />
      )}
    </fieldset>
  );
}
