import { useState } from 'preact/hooks';
import { t } from '../../i18n/i18n';

/**
 * Puts text on the clipboard: the Clipboard API where the page may use it (https or localhost),
 * else a selected text area and the browser's copy command (a workspace opened over plain http).
 */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission): the fallback below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  return copied;
}

/** Prints only the connection settings: the page's other parts are hidden while it prints (see employees.css). */
function printSettings(): void {
  document.body.classList.add('printing-connection');
  const done = () => {
    document.body.classList.remove('printing-connection');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
}

/** "Copy" and "Print" for connection settings; `text` is what is copied. */
export function CopyPrint({ text }: { text: string }) {
  const [status, setStatus] = useState('');
  return (
    <div class="actions copy-print">
      <button type="button" class="secondary" onClick={() => void copyText(text).then((ok) => setStatus(ok ? t('conn.copied') : t('conn.copyFailed')))}>
        {t('conn.copy')}
      </button>
      <button type="button" class="secondary" onClick={printSettings}>
        {t('conn.print')}
      </button>
      <span role="status" class="status-line">
        {status}
      </span>
    </div>
  );
}
