import { useEffect, useId, useState, type ReactNode } from 'react';
import { ChevronRight, Store, Users } from 'lucide-react';
import type { PublicVenue } from '@tipcard/shared/teams/venue-page';
import { Avatar } from '../../components/ui/avatar.tsx';
import { GuestShell } from '../../components/guest/guest-shell.tsx';
import { UnknownLink } from '../../components/guest/unknown-link.tsx';
import { guestLocale, useGuestT } from '../../lib/guest-i18n.ts';
import { localizePath } from '../../lib/locale.ts';
import { readShellData } from '../../lib/shell-data.ts';

/** What the server rendered the venue page from and inlined for hydration (apps/api teams/venue-page.routes.ts). */
export interface VenueShellData {
  venue?: PublicVenue | null;
  locale?: string;
}

/**
 * The venue's public page (`/venue/{workplaceId}`, the page its QR code opens): the guest picks a person or a team,
 * each a plain link to that card's own page, where the tip is paid as on any card. Rendered by the server (so it works
 * with no script at all) and hydrated only for the language switch. Without the server's data (vite dev) there is no
 * venue to show: the unknown-link page.
 */
export function VenueApp({ shell: given }: { shell?: VenueShellData }) {
  const [shell] = useState(() => given ?? readShellData<VenueShellData>());
  const venue = shell?.venue ?? null;
  const t = useGuestT();
  // The tab title follows the language the guest switches to (the server's is in the page's first language).
  useEffect(() => {
    document.title = venue ? t('venue.meta_title', { name: venue.name }) : t('meta.generic_title');
  }, [venue, t]);
  return <GuestShell>{venue ? <VenuePage venue={venue} /> : <UnknownLink />}</GuestShell>;
}

/**
 * The venue's name and its choices, one section per kind: everyone at the venue (its venue card, once made: the tip is
 * divided between the teams), a person, a team.
 */
export function VenuePage({ venue }: { venue: PublicVenue }) {
  const t = useGuestT();
  const locale = guestLocale();
  const cardPath = (cardId: string) => localizePath(`/payment/${cardId}`, locale);
  return (
    <div className="flex flex-col gap-6" data-testid="venue-page">
      <div>
        <p className="text-xs font-medium text-slate-500">{t('venue.eyebrow')}</p>
        <h1 className="text-2xl leading-tight font-bold tracking-tight break-words text-primary-950">{venue.name}</h1>
        <p className="mt-1 text-[15px] text-slate-600">{t('venue.intro')}</p>
      </div>
      {venue.venue_card_id ? (
        <ChoiceSection title={t('venue.everyone_title')} testId="venue-everyone">
          <ChoiceLink
            href={cardPath(venue.venue_card_id)}
            visual={
              <span className="grid size-16 shrink-0 place-items-center rounded-full bg-primary-100 text-primary-700 ring-1 ring-accent-300">
                <Store className="size-7" aria-hidden="true" />
              </span>
            }
            title={venue.name}
            detail={t('venue.everyone_detail', { count: venue.teams.length })}
          />
        </ChoiceSection>
      ) : null}
      {venue.people.length > 0 ? (
        <ChoiceSection title={t('venue.people_title')} testId="venue-people">
          {venue.people.map((person) => (
            <ChoiceLink
              key={person.card_id}
              href={cardPath(person.card_id)}
              visual={
                <Avatar
                  src={person.image_url}
                  name={person.public_name}
                  alt={t('card.photo_alt', { name: person.public_name })}
                  className="rounded-full"
                />
              }
              title={person.public_name}
              // The team says where the person works only where there is more than one.
              detail={venue.teams.length > 1 ? person.team_title : undefined}
            />
          ))}
        </ChoiceSection>
      ) : null}
      <ChoiceSection title={t('venue.teams_title')} testId="venue-teams">
        {venue.teams.map((team) => (
          <ChoiceLink
            key={team.team_id}
            href={cardPath(team.card_id)}
            visual={
              <span className="grid size-16 shrink-0 place-items-center rounded-full bg-primary-50 text-primary-700 ring-1 ring-primary-100">
                <Users className="size-7" aria-hidden="true" />
              </span>
            }
            title={team.title}
            detail={t('venue.team_people', { count: team.member_count })}
          />
        ))}
      </ChoiceSection>
    </div>
  );
}

/** A titled list of links: a screen reader announces the heading, then "list, n items". */
function ChoiceSection({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId} className="mb-2 text-sm font-semibold tracking-wide text-slate-700 uppercase">
        {title}
      </h2>
      <ul className="flex flex-col gap-2">{children}</ul>
    </section>
  );
}

/** One choice: a whole-row link (a large target on a phone) named by its title and detail. */
function ChoiceLink({ href, visual, title, detail }: { href: string; visual: ReactNode; title: string; detail?: string }) {
  return (
    <li>
      <a
        href={href}
        className="flex min-h-16 items-center gap-3 rounded-2xl bg-white px-3 py-2.5 shadow-xs ring-1 ring-slate-200/80 transition hover:ring-primary-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
      >
        {visual}
        <span className="min-w-0 flex-1">
          <span className="block font-semibold break-words text-primary-950">{title}</span>
          {detail ? <span className="block text-[13px] break-words text-slate-600">{detail}</span> : null}
        </span>
        <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden="true" />
      </a>
    </li>
  );
}
