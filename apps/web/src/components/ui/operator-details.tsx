import { useTranslation } from 'react-i18next';
import { Building2 } from 'lucide-react';
import { useSiteInfo } from '../../lib/site-info.ts';

/**
 * The operator's legal details exactly as configured: an unset detail leaves its line out, and with none at all
 * the block says that support gives them on request. Nothing here is ever made up.
 */
export function OperatorDetails({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const { t } = useTranslation('marketing');
  const company = useSiteInfo()?.company;
  const Heading = `h${headingLevel}` as const;
  const lines = [
    company?.name,
    company?.registration_number ? t('common.company_registration', { value: company.registration_number }) : null,
    company?.licence ? t('common.company_licence', { value: company.licence }) : null,
    company?.address,
  ].filter((line): line is string => Boolean(line));
  return (
    <div
      className="flex items-start gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70 sm:p-6"
      data-testid="operator-details"
    >
      <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary-800">
        <Building2 className="size-5" aria-hidden="true" />
      </span>
      <div>
        <Heading className="font-semibold text-primary-950">{t('common.operator_title')}</Heading>
        {lines.length > 0 ? (
          <address className="mt-1 text-sm not-italic leading-relaxed text-slate-600">
            {lines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        ) : (
          <p className="mt-1 text-sm text-slate-600">{t('common.operator_missing')}</p>
        )}
      </div>
    </div>
  );
}
