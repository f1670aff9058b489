import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileSpreadsheet, FileText } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { useTipRecordsDownload } from '../api/use-teams.ts';
import { rangeOf, type Period } from '../periods.ts';
import { PeriodPicker } from './period-picker.tsx';

/** The PDF and CSV buttons of a records download for the period; disabled until the period is complete. */
export function RecordsButtons({
  path,
  range,
  label,
}: {
  path: Parameters<typeof useTipRecordsDownload>[0];
  range: { from: string; to: string } | null;
  /** Says whose records the buttons download, for screen readers. */
  label: string;
}) {
  const { t } = useTranslation('teams');
  const download = useTipRecordsDownload(path);
  const pending = (format: 'csv' | 'pdf') => download.isPending && download.variables.format === format;
  return (
    <div className="mt-3 space-y-2">
      <div className="flex flex-wrap gap-2" role="group" aria-label={label}>
        {(['pdf', 'csv'] as const).map((format) => (
          <Button
            key={format}
            variant="secondary"
            disabled={!range || (download.isPending && !pending(format))}
            loading={pending(format)}
            onClick={() => range && download.mutate({ range, format })}
            icon={
              format === 'pdf' ? (
                <FileText className="size-4" aria-hidden="true" />
              ) : (
                <FileSpreadsheet className="size-4" aria-hidden="true" />
              )
            }
          >
            {t(`records.${format}`)}
          </Button>
        ))}
      </div>
      {download.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {t('records.error')}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A member's own tip allocation records (issue 29): every team tip they had a share of, with its maths, for last
 * month unless they pick another period, as PDF or CSV: two taps. They stay theirs after leaving the team.
 */
export function MyRecordsPanel({ clientId }: { clientId: string }) {
  const { t } = useTranslation('teams');
  const [period, setPeriod] = useState<Period>({ kind: 'last_month' });
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('records.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('records.text')}</p>
      <PeriodPicker period={period} onChange={setPeriod} kinds={['last_month', 'month', 'range']} label={t('records.period')} />
      <RecordsButtons path={`/clients/${clientId}/tip-records`} range={rangeOf(period, new Date())} label={t('records.title')} />
    </Panel>
  );
}
