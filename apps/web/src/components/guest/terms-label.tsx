import { localizePath } from '../../lib/locale.ts';
import { guestLocale } from '../../lib/guest-i18n.ts';

/** The terms sentence with its `<link>…</link>` part as a link to the terms, opened beside the form. */
export function TermsLabel({ text }: { text: string }) {
  const [before = '', linkText = '', after = ''] = text.split(/<link>|<\/link>/);
  return (
    <>
      {before}
      <a
        href={localizePath('/terms', guestLocale())}
        target="_blank"
        rel="noopener"
        className="font-medium text-primary-800 underline underline-offset-2"
      >
        {linkText}
      </a>
      {after}
    </>
  );
}
