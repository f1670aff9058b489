import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';

/** The teams pages while their data loads. */
export function TeamsLoader() {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-[40vh] place-items-center text-primary-700">
      <Spinner className="scale-150" label={t('loading')} />
    </div>
  );
}
