import { Star } from 'lucide-react';
import type { PublicCard } from '@tipcard/shared/payments/schemas';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { guestLocale, useGuestT } from '../../../lib/guest-i18n.ts';

/** Who the tip is for: photo or initials, public name, welcome phrase and the card's average rating. */
export function RecipientHeader({ card }: { card: PublicCard }) {
  const t = useGuestT();
  const rating =
    card.rating !== null && card.rating_count > 0
      ? new Intl.NumberFormat(guestLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(card.rating)
      : null;
  if (card.team) return <TeamHeader card={card} team={card.team} kind="team" />;
  if (card.venue) return <TeamHeader card={card} team={card.venue} kind="venue" />;
  // A row rather than a tall column: the amount, the wallets and Pay must fit the first screen of a 360×640 phone.
  return (
    <div className="flex items-center gap-3">
      <Avatar
        src={card.image_url}
        name={card.public_name}
        alt={t('card.photo_alt', { name: card.public_name })}
        className="size-14 shrink-0 rounded-full text-xl shadow-md shadow-primary-900/10 ring-2 ring-white"
      />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 text-xs font-medium text-slate-500">
          {card.activity_type === 'DONATION' ? t('donation.eyebrow') : t('card.eyebrow')}
          <span className="inline-flex items-center gap-1 text-xs font-normal text-slate-600">
            {rating ? (
              <>
                <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
                <span className="sr-only">{t('card.rating', { rating })}</span>
                <span aria-hidden="true" className="font-semibold">
                  {rating}
                </span>
                <span className="text-slate-500">{t('card.rating_count', { count: card.rating_count })}</span>
              </>
            ) : (
              <span className="rounded-full bg-white px-2 py-0.5 ring-1 ring-slate-200/80">{t('card.new')}</span>
            )}
          </span>
        </p>
        <h1 className="text-xl leading-tight font-bold tracking-tight break-words text-primary-950">{card.public_name}</h1>
        {card.welcome_phrase ? (
          <p className="line-clamp-2 text-[13px] leading-snug text-slate-600">“{card.welcome_phrase}”</p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A team card: the team's title and workplace, its members' photos, and that the tip is split among them; a venue card
 * (decision 0058) the same for the venue's teams, whose tip is divided between the teams.
 */
function TeamHeader({ card, team, kind }: { card: PublicCard; team: NonNullable<PublicCard['team']>; kind: 'team' | 'venue' }) {
  const t = useGuestT();
  return (
    <div className="flex items-center gap-3" data-testid="team-card-header">
      <div className="flex shrink-0 -space-x-4">
        {team.members.slice(0, 3).map((member, index) => (
          <Avatar
            key={index}
            src={member.image_url}
            name={member.public_name}
            alt={member.public_name ?? ''}
            className="size-12 rounded-full text-base ring-2 ring-white"
          />
        ))}
      </div>
      <div className="min-w-0">
        <p className="text-xs font-medium text-slate-500">{t(kind === 'team' ? 'card.team_eyebrow' : 'card.venue_eyebrow')}</p>
        <h1 className="text-xl leading-tight font-bold tracking-tight break-words text-primary-950">{team.title}</h1>
        <p className="text-[13px] leading-snug text-slate-600">
          {kind === 'team'
            ? `${t('card.team_at', { workplace: team.workplace_name })} · ${t('card.team_split', { count: team.member_count })}`
            : t('card.venue_split')}
        </p>
        {card.welcome_phrase ? (
          <p className="line-clamp-1 text-[13px] leading-snug text-slate-600">“{card.welcome_phrase}”</p>
        ) : null}
      </div>
    </div>
  );
}
