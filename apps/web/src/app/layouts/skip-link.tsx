import { useTranslation } from 'react-i18next';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main-content"
      onClick={(event) => {
        // Hash routing owns the URL hash: move focus without navigating.
        event.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
      className="sr-only z-[70] rounded-lg bg-white px-4 py-2 font-semibold text-primary-900 shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
    >
      {t('skip_to_content')}
    </a>
  );
}
