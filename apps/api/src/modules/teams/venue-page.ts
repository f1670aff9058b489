import type { Locale } from '@tipcard/shared/constants';
import { venuePagePath, type PublicVenue, type VenuePersonChoice } from '@tipcard/shared/teams/venue-page';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { t } from '../../lib/i18n.ts';
import { DEFAULT_QR_COLOR, renderQrCode } from '../../lib/qr-code.ts';
import { findOwnCard, findPrivateCardOfUser } from '../cards/cards.service.ts';
import { renderCardPdf } from '../documents/documents.service.ts';
import { findDeletedAmong } from '../users/users.service.ts';
import * as repo from './teams.repository.ts';

export type VenuePages = ReturnType<typeof createVenuePages>;

/**
 * The venue's public page (issue 29): the guest who scans the venue's one QR code picks a person or a team there, then
 * tips on that card's own page. A venue is a workplace and every team it holds (listed by `workplace_id`, so several
 * teams per workplace need nothing more here); its QR code and print sheet are its admin's.
 */
export function createVenuePages({
  db,
  publicUrl,
  venueCardIdOf,
}: {
  db: Database;
  publicUrl: string;
  /** The venue card's id once one is made (the venue-tips module's, which builds on this one). */
  venueCardIdOf: (workplaceId: string) => Promise<string | null>;
}) {
  const venueUrl = (workplaceId: string) => `${publicUrl}${venuePagePath(workplaceId)}`;

  /**
   * The venue when the user is one of its admins (decision 0057) or runs one of its teams, checked as the team card's
   * own QR code and print sheet check it (the team card is held by its admin's client, decision 0048); 404 otherwise,
   * so nobody learns of others' venues.
   */
  async function requireVenueAdmin(userId: string, workplaceId: string) {
    const workplace = await repo.findWorkplace(db, workplaceId);
    if (!workplace) throw new AppError('not_found');
    if (await repo.isWorkplaceAdmin(db, workplaceId, userId)) return workplace;
    for (const team of await repo.listTeamsOfWorkplace(db, workplaceId)) {
      const owned = await findOwnCard(db, userId, team.cardId).then(
        () => true,
        (error: unknown) => {
          if (error instanceof AppError && error.code === 'not_found') return false;
          throw error;
        },
      );
      if (owned) return workplace;
    }
    throw new AppError('not_found');
  }

  async function qrPng(workplaceId: string): Promise<Buffer> {
    return (await renderQrCode(venueUrl(workplaceId), DEFAULT_QR_COLOR, 'png')).body as Buffer;
  }

  return {
    /**
     * Whom a guest may tip at the venue: each team (its team card) and each current member of those teams who has a
     * card of their own; nobody whose account is deleted (their cards take no payments). Null for an unknown venue.
     */
    async venue(workplaceId: string): Promise<PublicVenue | null> {
      const workplace = await repo.findWorkplace(db, workplaceId);
      if (!workplace) return null;
      const teams = await repo.listTeamsOfWorkplace(db, workplaceId);
      const memberships = await repo.listOpenMembershipsOfTeams(
        db,
        teams.map((team) => team.id),
      );
      const deleted = await findDeletedAmong(
        db,
        memberships.map((membership) => membership.userId),
      );
      const people: VenuePersonChoice[] = [];
      for (const membership of memberships) {
        if (deleted.has(membership.userId)) continue;
        const card = await findPrivateCardOfUser(db, membership.userId);
        if (!card) continue;
        const team = teams.find((candidate) => candidate.id === membership.teamId)!;
        people.push({ card_id: card.id, public_name: card.public_name, image_url: card.image_url, team_title: team.title });
      }
      return {
        id: workplace.id,
        name: workplace.name,
        venue_card_id: await venueCardIdOf(workplace.id),
        people,
        teams: teams.map((team) => ({
          team_id: team.id,
          title: team.title,
          card_id: team.cardId,
          member_count: memberships.filter((membership) => membership.teamId === team.id && !deleted.has(membership.userId))
            .length,
        })),
      };
    },

    /** The venue page's QR code as a PNG, for the venue's admin. */
    async qrCode(userId: string, workplaceId: string): Promise<Buffer> {
      await requireVenueAdmin(userId, workplaceId);
      return qrPng(workplaceId);
    },

    /** The venue's QR code on the card sheet the team card prints on (decision 0048), for the venue's admin. */
    async printSheet(userId: string, workplaceId: string, locale: Locale): Promise<Buffer> {
      const workplace = await requireVenueAdmin(userId, workplaceId);
      return renderCardPdf(
        {
          publicName: workplace.name,
          title: t('documents.card.venue_title', undefined, locale),
          donation: false,
          paymentUrl: venueUrl(workplaceId),
          qrPng: await qrPng(workplaceId),
        },
        locale,
      );
    },
  };
}
