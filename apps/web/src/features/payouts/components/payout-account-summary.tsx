import { useTranslation } from 'react-i18next';
import { useMyCard } from '../../../app/session/use-my-card.ts';
import { usePayoutMethods } from '../api/use-payouts.ts';
import { shortMask } from '../format.ts';

/** The settings list's line about payouts: the account payouts go to first, or that there is none yet. */
export default function PayoutAccountSummary() {
  const { t } = useTranslation('settings');
  const { clientId } = useMyCard();
  const method = usePayoutMethods(clientId).data?.[0];
  return <>{method ? t('payout.current', { account: shortMask(method.masked_account) }) : t('payout.none')}</>;
}
