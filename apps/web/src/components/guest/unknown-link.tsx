import { buttonClasses } from '../ui/button-base.tsx';
import { useGuestT } from '../../lib/guest-i18n.ts';
import { OutcomeView } from './outcome-view.tsx';

/** The guest pages' 404: an unknown, malformed or deleted card's or venue's link (spec 2, "no longer active"). */
export function UnknownLink() {
  const t = useGuestT();
  return (
    <OutcomeView tone="unknown" title={t('unknown.title')} text={t('unknown.text')} testId="payment-unknown">
      <a href="/" className={buttonClasses('secondary', 'lg', true)}>
        {t('unknown.home')}
      </a>
    </OutcomeView>
  );
}
