import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import { Building2 } from 'lucide-react';
import { workplaceBody } from '@tipcard/shared/teams/schemas';
import { TeamsLoader } from './components/teams-loader.tsx';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { Button } from '../../components/ui/button.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { SERVED_COUNTRIES } from '@tipcard/shared/auth/phone';
import { useServedCountryOptions } from '../../lib/countries.ts';
import { translateValidation } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useCreateWorkplace, useWorkplace } from './api/use-teams.ts';

type WorkplaceInput = z.input<typeof workplaceBody>;
type WorkplaceOutput = z.output<typeof workplaceBody>;

/** /workplace/create: name and country; creates the workplace, its team (the user is admin) and the team card. */
export default function WorkplaceCreatePage() {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const { clientId, card, isPending } = useMyCard();
  const workplace = useWorkplace(clientId);
  useDocumentTitle(t('create.title'));

  // The form starts from the card's country, so it waits for the card as well as for the team check.
  if (workplace.isPending || isPending) return <TeamsLoader />;
  // One team at a time: a member goes to their workplace.
  if (workplace.data) return <Navigate to={to('/workplace')} replace />;
  const country = card && SERVED_COUNTRIES.includes(card.country as never) ? card.country : '';
  return <CreateWorkplaceForm clientId={clientId} country={country} />;
}

function CreateWorkplaceForm({ clientId, country }: { clientId: string | undefined; country: string }) {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const navigate = useNavigate();
  const create = useCreateWorkplace(clientId);
  const countries = useServedCountryOptions();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<WorkplaceInput, unknown, WorkplaceOutput>({
    resolver: zodResolver(workplaceBody),
    defaultValues: { name: '', country },
  });

  const onSubmit = (values: WorkplaceOutput) =>
    create.mutate(values, { onSuccess: () => void navigate(to('/workplace'), { replace: true }) });

  return (
    <div className="mx-auto max-w-xl">
      <PageHeader title={t('create.title')} description={t('create.description')} />
      <Panel>
        <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5" data-testid="workplace-create-form">
          <TextField
            label={t('create.name')}
            hint={t('create.name_hint')}
            maxLength={60}
            error={translateValidation(errors.name?.message)}
            {...register('name')}
          />
          <SelectField
            label={t('create.country')}
            placeholder={t('create.choose')}
            options={countries}
            autoComplete="country"
            error={translateValidation(errors.country?.message)}
            {...register('country')}
          />
          <Button
            type="submit"
            size="lg"
            block
            disabled={create.isPending}
            icon={<Building2 className="size-5" aria-hidden="true" />}
          >
            {t('create.submit')}
          </Button>
        </form>
      </Panel>
    </div>
  );
}
