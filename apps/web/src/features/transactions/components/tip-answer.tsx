import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageSquareReply, Send } from 'lucide-react';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { TIP_ANSWER_MAX_LENGTH, type Transaction } from '@tipcard/shared/transactions/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError, apiErrorText } from '../../../lib/api-errors.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useSendTipAnswer, useTipAnswer } from '../api/use-tip-answer.ts';

/**
 * The answer to the guest's message on a received tip (decision 0047): once, by e-mail to the address the guest gave
 * for the receipt, which the recipient never sees. Offered only where the server says it can go.
 */
export function TipAnswer({ clientId, transaction }: { clientId: string | undefined; transaction: Transaction }) {
  const { t } = useTranslation('transactions');
  const state = useTipAnswer(clientId, transaction.id);
  const send = useSendTipAnswer(clientId, transaction.id);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const titleId = useId();

  const body = () => {
    if (state.isPending) return <Spinner className="mt-3" label={t('answer.loading')} />;
    if (state.isError)
      return (
        <div role="alert" className="mt-2 text-sm text-slate-600">
          <p>{t('answer.load_error')}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void state.refetch()}>
            {t('common:actions.retry')}
          </Button>
        </div>
      );
    const { answer, can_answer: canAnswer } = state.data;
    if (answer)
      return (
        <div className="mt-2 rounded-xl bg-emerald-50 p-3 text-sm ring-1 ring-emerald-100" data-testid="tip-answer-sent">
          <p className="text-slate-600">
            {t('answer.sent_at', { date: formatDate(answer.created_at, 'dateTime', currentLocale()) })}
          </p>
          <p className="mt-1 whitespace-pre-line font-medium text-slate-900 [overflow-wrap:anywhere]">{answer.text}</p>
        </div>
      );
    if (!canAnswer) return <p className="mt-1 text-sm text-slate-600">{t('answer.no_email')}</p>;
    if (!open)
      return (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('answer.hint')}</p>
          <Button
            className="mt-3"
            variant="secondary"
            onClick={() => setOpen(true)}
            icon={<MessageSquareReply className="size-4" aria-hidden="true" />}
            data-testid="tip-answer-open"
          >
            {t('answer.open')}
          </Button>
        </>
      );
    const error = send.error instanceof ApiError ? apiErrorText(send.error) : send.error ? t('answer.send_error') : null;
    return (
      <form
        className="mt-2"
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate(text, { onSuccess: () => showSnackbar(t('answer.done'), 'success') });
        }}
      >
        <TextAreaField
          label={t('answer.label')}
          value={text}
          maxLength={TIP_ANSWER_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          // Focus goes to the field the button just revealed.
          autoFocus
          required
          hint={t('answer.counter', { count: text.trim().length, max: TIP_ANSWER_MAX_LENGTH })}
          error={error ?? undefined}
          data-testid="tip-answer-text"
        />
        <p className="mt-2 text-sm text-slate-600">{t('answer.privacy')}</p>
        <div className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setOpen(false)} disabled={send.isPending}>
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            loading={send.isPending}
            disabled={text.trim().length === 0}
            icon={<Send className="size-4" aria-hidden="true" />}
            data-testid="tip-answer-send"
          >
            {t('answer.send')}
          </Button>
        </div>
      </form>
    );
  };

  return (
    <section aria-labelledby={titleId} className="mt-4 border-t border-slate-100 pt-4" data-testid="tip-answer">
      <h3 id={titleId} className="text-sm font-semibold text-slate-900">
        {t('answer.title')}
      </h3>
      {body()}
    </section>
  );
}
