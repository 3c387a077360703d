import { draftText, TextField, type FormPartProps, type TextKey } from './form-fields';
import { splitList } from './rule-checks';
import { t, type PlainKey } from '../../i18n/i18n';

type RecipientList = Extract<TextKey, 'emails' | 'smsPhones' | 'messengerUserIDs' | 'messenger2UserIDs'>;

/** The recipient lists, each typed one per line or separated by commas. */
export const RECIPIENT_LISTS: Record<RecipientList, { label: PlainKey; inputMode: 'email' | 'tel' | 'numeric'; hint: PlainKey }> = {
  emails: { label: 'rules.emailsLabel', inputMode: 'email', hint: 'rules.emailsHint' },
  smsPhones: { label: 'rules.phonesLabel', inputMode: 'tel', hint: 'rules.phonesHint' },
  messengerUserIDs: {
    label: 'rules.botLabel',
    inputMode: 'numeric',
    hint: 'rules.botHint',
  },
  messenger2UserIDs: {
    label: 'rules.secondLabel',
    inputMode: 'numeric',
    hint: 'rules.secondHint',
  },
};

/**
 * Step 3, second part: who is told. E-mail goes through the server's SMTP; SMS and the two
 * messenger channels through the HTTP gateways the operator set up, each recipient passed on as
 * the gateway's `to`; the API channel POSTs the event to the customer's address.
 */
export function RuleRecipients(part: FormPartProps & { smsEnabled: boolean }) {
  const { draft, change, smsEnabled } = part;
  const list = (field: RecipientList) => {
    const { label, inputMode, hint } = RECIPIENT_LISTS[field];
    return <TextField {...draftText(part, field)} label={t(label)} inputMode={inputMode} hint={t(hint)} multiline />;
  };
  return (
    <fieldset>
      <legend>{t('rules.recipients')}</legend>
      <label class="inline">
        <input type="checkbox" checked={draft.alertWorkspace} onChange={(e) => change({ alertWorkspace: e.currentTarget.checked })} />
        {t('rules.alertWorkspace')}
      </label>
      <p class="hint">{t('rules.alertWorkspaceHint')}</p>
      {list('emails')}
      {smsEnabled ? (
        list('smsPhones')
      ) : (
        <p class="note">
          {t('rules.noSms')}
          {draft.smsPhones.trim() !== '' && t('rules.smsDropped', { phones: splitList(draft.smsPhones).join(', ') })}
        </p>
      )}
      {list('messengerUserIDs')}
      {list('messenger2UserIDs')}
      <p class="hint">
        {t('rules.gateways')}
      </p>
      <label class="inline">
        <input type="checkbox" checked={draft.sendToApi} onChange={(e) => change({ sendToApi: e.currentTarget.checked }, 'apiUrl')} />
        {t('rules.sendToApi')}
      </label>
      {draft.sendToApi && (
        <TextField
          {...draftText(part, 'apiUrl')}
          label={t('rules.apiUrl')}
          type="url"
          inputMode="url"
          hint={t('rules.apiUrlHint')}
        />
      )}
    </fieldset>
  );
}
