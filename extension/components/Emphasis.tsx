import { type MessageKey, t } from '@/lib/i18n/translate';

const MARK = '\u0000';

interface EmphasisProps {
  /** The sentence, in the current language. */
  message: MessageKey;
  /** Its parameters; the one named by `strong` is shown in <strong>. */
  params: Record<string, string | number>;
  strong: string;
}

/**
 * A translated sentence with one of its parameters in bold, wherever the language puts it:
 * `Connected as {name} to {url}.` renders as `Connected as <strong>name</strong> to url.`
 */
export function Emphasis({ message, params, strong }: EmphasisProps) {
  const [before = '', ...after] = t(message, { ...params, [strong]: MARK }).split(MARK);
  if (after.length === 0) return <>{before}</>;
  return (
    <>
      {before}
      <strong>{params[strong]}</strong>
      {after.join(String(params[strong]))}
    </>
  );
}
