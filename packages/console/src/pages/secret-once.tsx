import { useState } from 'preact/hooks';
import { useText } from '../text.js';

/** A secret the API shows once (a password, a client secret), with a button that copies it. */
export function SecretOnce({ label, secret }: { readonly label: string; readonly secret: string }) {
  const { t } = useText();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard.writeText(secret).then(() => setCopied(true));
  };
  return (
    <div class="notice secret-once" role="status">
      <p>{label}</p>
      <p>
        <code class="secret-value">{secret}</code>
      </p>
      <button type="button" class="button secondary" onClick={copy}>
        {copied ? t('common.copied') : t('common.copy')}
      </button>
    </div>
  );
}
