import type { z } from 'zod';
import type { Card, cardBody, cardPatchBody } from '@tipcard/shared/cards/schemas';
import { presetsOfCard } from '@tipcard/shared/cards/presets';
import type { ActivityType } from '@tipcard/shared/constants';
import type { PublicCard } from '@tipcard/shared/payments/schemas';
import type { ThankYou } from '@tipcard/shared/payments/guest-form';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BoundedCache } from '../../lib/http-cache.ts';
import { t } from '../../lib/i18n.ts';
import { requireOwnClient } from '../users/users.service.ts';
import { deleteFile, storeFile } from '../files/files.service.ts';
import * as repo from './cards.repository.ts';
import { avatarOf, decodeUpload, normalizePhoto, PHOTO_MIME } from './photo.ts';
import { normalizeHexColor, renderQrCode, type QrFormat } from '../../lib/qr-code.ts';

type CardInput = z.output<typeof cardBody>;
type CardPatch = z.output<typeof cardPatchBody>;

/** The public payment page of a card: what its QR code encodes and guests open (DESIGN "Web app"). */
export function paymentUrlOf(publicUrl: string, cardId: string): string {
  return `${publicUrl}/payment/${cardId}`;
}

/** The photo URL carries the file id, so a new photo is a new URL and the old one may be cached for ever. */
export function photoUrlOf(cardId: string, photoFileId: string | null): string | null {
  return photoFileId ? `/api/cards/${cardId}/photo?v=${photoFileId}` : null;
}

/** The thank-you photo's URL, versioned by its file like the card photo's. */
export function thankYouPhotoUrlOf(cardId: string, photoFileId: string | null): string | null {
  return photoFileId ? `/api/cards/${cardId}/thank-you/photo?v=${photoFileId}` : null;
}

/** Which of a card's two photos a call is about: the card's own, or the one beside its thank-you (decision 0047). */
export type PhotoSlot = 'card' | 'thank_you';
const PHOTO_COLUMN = { card: 'photoFileId', thank_you: 'thankYouPhotoFileId' } as const satisfies Record<
  PhotoSlot,
  keyof repo.CardRow
>;

/** The average of the guests' ratings to one decimal, or null before the first rating. */
function averageRating(row: repo.CardRow): number | null {
  return row.ratingCount > 0 ? Math.round((row.ratingSum * 10) / row.ratingCount) / 10 : null;
}

function toCard(row: repo.CardRow, publicUrl: string): Card {
  return {
    id: row.id,
    client_id: row.clientId,
    title: row.title,
    image_url: photoUrlOf(row.id, row.photoFileId),
    public_name: row.publicName,
    welcome_phrase: row.welcomePhrase,
    public_text: row.publicText,
    activity_type: row.activityType as Card['activity_type'],
    country: row.country,
    instagram: row.instagram,
    facebook: row.facebook,
    tiktok: row.tiktok,
    rating: averageRating(row),
    preset_amounts_cents: row.presetAmountsCents,
    is_private: row.isPrivate,
    payment_url: paymentUrlOf(publicUrl, row.id),
    thank_you_text: row.thankYouText,
    thank_you_image_url: thankYouPhotoUrlOf(row.id, row.thankYouPhotoFileId),
  };
}

/** Body fields (snake_case, already validated) → columns; a full body gives every column, a patch only its own. */
function toColumns<T extends CardPatch>(body: T) {
  return {
    title: body.title as T['title'],
    publicName: body.public_name as T['public_name'],
    welcomePhrase: body.welcome_phrase as T['welcome_phrase'],
    publicText: body.public_text as T['public_text'],
    activityType: body.activity_type as T['activity_type'],
    country: body.country as T['country'],
    instagram: body.instagram as T['instagram'],
    facebook: body.facebook as T['facebook'],
    tiktok: body.tiktok as T['tiktok'],
    presetAmountsCents: body.preset_amounts_cents as T['preset_amounts_cents'],
    thankYouText: body.thank_you_text as T['thank_you_text'],
  };
}

/** The card when the user owns it (through its client); 404 otherwise, so other users' ids reveal nothing. */
async function requireOwnCard(db: Executor, userId: string, cardId: string): Promise<repo.CardRow> {
  const card = await repo.findCard(db, cardId);
  if (!card) throw new AppError('not_found');
  await requireOwnClient(db, userId, card.clientId);
  return card;
}

/**
 * Whether a user who does not hold a card may still use it: show and print its QR code and order it printed (decision
 * 0061: a venue card is every admin's of its venue). Given by the composition root, so that this module knows no
 * venue; editing a card stays with its holder.
 */
export type CardSharing = (db: Executor, userId: string, cardId: string) => Promise<boolean>;

/** The card when the user holds it or it is shared with them (`CardSharing`); 404 otherwise, as for an unknown card. */
async function requireUsableCard(db: Executor, userId: string, cardId: string, sharing: CardSharing): Promise<repo.CardRow> {
  try {
    return await requireOwnCard(db, userId, cardId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found' && (await sharing(db, userId, cardId)))
      return (await repo.findCard(db, cardId))!;
    throw error;
  }
}

/** A card the user owns (their own, or a team card they run), for another module's use of it; 404 otherwise. */
export async function findOwnCard(db: Executor, userId: string, cardId: string): Promise<Card> {
  return toCard(await requireOwnCard(db, userId, cardId), '');
}

/**
 * The private card of the user, or null before the first card exists (used by GET /me). Without `publicUrl` the
 * `payment_url` is the site-relative path.
 */
export async function findPrivateCardOfUser(db: Executor, userId: string, publicUrl = ''): Promise<Card | null> {
  const row = await repo.findPrivateCardOfUser(db, userId);
  return row ? toCard(row, publicUrl) : null;
}

/**
 * What a guest sees of a card before paying, and whether it is a team card (whose team the caller adds); null for an
 * unknown card.
 */
export async function findPublicCard(
  db: Executor,
  cardId: string,
  terms: Pick<PublicCard, 'fee_percent' | 'min_amount_cents' | 'max_amount_cents' | 'preset_amounts_cents'>,
): Promise<{ card: PublicCard; teamCard: boolean } | null> {
  const owned = await repo.findPublicCardRow(db, cardId);
  // A deleted account's cards take no more payments: their page is "no longer active" (404).
  if (!owned || owned.ownerDeletedAt) return null;
  const row = owned.card;
  const card: PublicCard = {
    id: row.id,
    title: row.title,
    public_name: row.publicName,
    welcome_phrase: row.welcomePhrase,
    public_text: row.publicText,
    image_url: photoUrlOf(row.id, row.photoFileId),
    activity_type: row.activityType as PublicCard['activity_type'],
    rating: averageRating(row),
    rating_count: row.ratingCount,
    currency: 'EUR',
    ...terms,
    preset_amounts_cents: [...presetsOfCard(row.activityType as ActivityType, row.presetAmountsCents)],
  };
  return { card, teamCard: owned.teamCard };
}

/**
 * The thank-you a payer of the card reads (success page, receipt), or null when the owner wrote none: the photo goes
 * with the text and is not shown alone. An erased account's card has none (erasure clears it).
 */
export async function findCardThankYou(db: Executor, cardId: string): Promise<ThankYou | null> {
  const row = await repo.findCard(db, cardId);
  return row?.thankYouText ? { text: row.thankYouText, image_url: thankYouPhotoUrlOf(row.id, row.thankYouPhotoFileId) } : null;
}

/** The bytes of the card's thank-you photo (a JPEG, as stored), or null without one: the receipt PDF draws it. */
export async function findThankYouPhoto(db: Executor, cardId: string): Promise<Buffer | null> {
  const photo = await repo.findCardPhoto(db, cardId, 'thankYouPhotoFileId');
  return photo ? Buffer.from(photo.content.buffer, photo.content.byteOffset, photo.content.byteLength) : null;
}

/** How a card presents its owner to a payer (an invoice's "who asks"); null for an unknown card. */
export async function findCardFace(db: Executor, cardId: string) {
  const row = await repo.findCard(db, cardId);
  return row ? { public_name: row.publicName, title: row.title, image_url: photoUrlOf(row.id, row.photoFileId) } : null;
}

/**
 * The card a guest pays and the user who receives the money; null for an unknown card. `active` is false once the
 * owner has deleted the account: no new payment opens, while one already paid is still credited (and so restorable).
 */
export async function findCardRecipient(db: Executor, cardId: string) {
  const row = await repo.findCardWithOwner(db, cardId);
  return row
    ? {
        cardId: row.card.id,
        userId: row.userId,
        title: row.card.title,
        publicName: row.card.publicName,
        activityType: row.card.activityType,
        active: row.ownerDeletedAt === null,
      }
    : null;
}

/** Erasure of a deleted account: what its cards show of the person (name, texts, links, photo) is cleared. */
export async function eraseCardsOfUser(tx: Executor, userId: string): Promise<void> {
  for (const card of await repo.lockCardsOfUser(tx, userId)) {
    await repo.updateCard(tx, card.id, {
      title: '',
      publicName: '',
      welcomePhrase: null,
      publicText: null,
      instagram: null,
      facebook: null,
      tiktok: null,
      photoFileId: null,
      thankYouText: null,
      thankYouPhotoFileId: null,
    });
    if (card.photoFileId) await deleteFile(tx, card.photoFileId);
    if (card.thankYouPhotoFileId) await deleteFile(tx, card.thankYouPhotoFileId);
  }
}

/** Counts a guest's rating on the card, inside the transaction that credits the tip. */
export async function addCardRating(tx: Executor, cardId: string, rating: number): Promise<void> {
  await repo.addRating(tx, cardId, rating);
}

/** Counts many guests' ratings, inside the transaction that credits their tips (a batch, decision 0060). */
export async function addCardRatings(tx: Executor, ratings: readonly { cardId: string; rating: number }[]): Promise<void> {
  await repo.addRatings(tx, ratings);
}

/**
 * A team's card (DESIGN "Teams and workplaces"): a card like any other, held by the team admin's client so that its
 * QR code, printable card and modal work as for a personal card. Not private: the admin keeps their own card too.
 */
export async function createTeamCard(
  tx: Executor,
  clientId: string,
  team: { title: string; workplaceName: string; country: string },
): Promise<Card> {
  const row = await repo.insertCard(tx, {
    clientId,
    isPrivate: false,
    title: team.title,
    publicName: team.workplaceName,
    welcomePhrase: null,
    publicText: null,
    activityType: 'WAITER',
    country: team.country,
    instagram: null,
    facebook: null,
    tiktok: null,
  });
  return toCard(row, '');
}

/** Keeps a team card named as its team, and held by its admin's client (granting admin moves it). */
export async function updateTeamCard(
  tx: Executor,
  cardId: string,
  changes: { title?: string; publicName?: string; country?: string; clientId?: string },
): Promise<void> {
  const { clientId, ...fields } = changes;
  if (Object.keys(fields).length > 0) await repo.updateCard(tx, cardId, fields);
  if (clientId) await repo.moveCard(tx, cardId, clientId);
}

export type CardsService = ReturnType<typeof createCardsService>;

/** The sizes a card photo is served in: as stored (at most 1024 px), or the avatar variant (at most 192 px). */
export type PhotoSize = 'full' | 'avatar';
/** Avatar variants kept per process: about 10 KB each. */
const AVATAR_CACHE_ENTRIES = 2_000;

/**
 * The owner's cards (and a card's public photo); `publicUrl` makes each card's payment URL; `sharing` says who else may
 * use a card they do not hold (its QR code, print sheet and the card shop).
 */
export function createCardsService({ db, publicUrl, sharing }: { db: Database; publicUrl: string; sharing: CardSharing }) {
  // Made once per photo file: a file never changes (a new photo is a new file), so a variant never goes stale.
  const avatars = new BoundedCache<Buffer>(AVATAR_CACHE_ENTRIES);
  return {
    async list(userId: string, clientId: string): Promise<Card[]> {
      await requireOwnClient(db, userId, clientId);
      const rows = await repo.listCardsOfClient(db, clientId);
      return rows.map((row) => toCard(row, publicUrl));
    },

    /**
     * A new card under the user's client. A private client has exactly one card, its private card: a second is a 422
     * card_limit. The count is the friendly check; the partial unique index is the guarantee when two requests race.
     */
    async create(userId: string, clientId: string, body: CardInput): Promise<Card> {
      const client = await requireOwnClient(db, userId, clientId);
      const isPrivate = client.type === 'private';
      try {
        const row = await db.transaction(async (tx) => {
          if (isPrivate && (await repo.countCardsOfClient(tx, client.id)) > 0) throw new AppError('card_limit');
          return repo.insertCard(tx, { clientId: client.id, isPrivate, ...toColumns(body) });
        });
        return toCard(row, publicUrl);
      } catch (error) {
        if (isUniqueViolation(error, repo.ONE_PRIVATE_CARD_INDEX)) throw new AppError('card_limit');
        throw error;
      }
    },

    /** Changes the fields the body carries (an empty body changes nothing but `updated_at`). */
    async update(userId: string, cardId: string, patch: CardPatch): Promise<Card> {
      await requireOwnCard(db, userId, cardId);
      const changes = Object.fromEntries(Object.entries(toColumns(patch)).filter(([, value]) => value !== undefined));
      const row = await repo.updateCard(db, cardId, changes);
      if (!row) throw new AppError('not_found');
      return toCard(row, publicUrl);
    },

    /**
     * Replaces the card's photo (or its thank-you photo). The upload is checked and re-encoded before the transaction
     * (CPU work holds no lock); the card row is locked so that two uploads at once cannot orphan a file.
     */
    async setPhoto(userId: string, cardId: string, upload: { content: string }, slot: PhotoSlot = 'card'): Promise<Card> {
      await requireOwnCard(db, userId, cardId);
      const photo = await normalizePhoto(decodeUpload(upload.content));
      const column = PHOTO_COLUMN[slot];
      const row = await db.transaction(async (tx) => {
        const card = await repo.findCardForUpdate(tx, cardId);
        if (!card) throw new AppError('not_found');
        const fileId = await storeFile(tx, { ownerUserId: userId, mime: photo.mime, content: photo.content });
        const updated = await repo.updateCard(tx, cardId, { [column]: fileId });
        if (card[column]) await deleteFile(tx, card[column]);
        return updated!;
      });
      return toCard(row, publicUrl);
    },

    /** Removes the card's photo (or thank-you photo) and its stored file; without one the card is answered as it is. */
    async removePhoto(userId: string, cardId: string, slot: PhotoSlot = 'card'): Promise<Card> {
      await requireOwnCard(db, userId, cardId);
      const column = PHOTO_COLUMN[slot];
      const row = await db.transaction(async (tx) => {
        const card = await repo.findCardForUpdate(tx, cardId);
        if (!card) throw new AppError('not_found');
        const fileId = card[column];
        if (!fileId) return card;
        const updated = await repo.updateCard(tx, cardId, { [column]: null });
        await deleteFile(tx, fileId);
        return updated!;
      });
      return toCard(row, publicUrl);
    },

    /** The photo of a card for anyone (guests see it on the payment page); 404 when there is none. */
    async photo(
      cardId: string,
      size: PhotoSize = 'full',
      slot: PhotoSlot = 'card',
    ): Promise<{ fileId: string; mime: string; content: Buffer }> {
      const photo = await repo.findCardPhoto(db, cardId, slot === 'thank_you' ? 'thankYouPhotoFileId' : 'photoFileId');
      if (!photo) throw new AppError('not_found');
      const content = Buffer.from(photo.content.buffer, photo.content.byteOffset, photo.content.byteLength);
      if (size === 'full') return { fileId: photo.fileId, mime: photo.mime, content };
      let avatar = avatars.get(photo.fileId);
      if (!avatar) {
        avatar = await avatarOf(content);
        avatars.set(photo.fileId, avatar);
      }
      return { fileId: photo.fileId, mime: PHOTO_MIME, content: avatar };
    },

    /** A card the user holds or may use (`CardSharing`): what its print sheet and the card shop print; 404 otherwise. */
    async usableCard(userId: string, cardId: string): Promise<Card> {
      return toCard(await requireUsableCard(db, userId, cardId, sharing), publicUrl);
    },

    /**
     * The QR code of a card the user holds or may use. It may only encode that card's own payment page, so the
     * endpoint cannot be used to brand arbitrary links.
     */
    async qrCode(
      userId: string,
      cardId: string,
      query: { url: string; hexColor?: string | undefined; format: QrFormat },
    ): Promise<{ mime: string; body: Buffer | string }> {
      const card = await requireUsableCard(db, userId, cardId, sharing);
      const expected = paymentUrlOf(publicUrl, card.id);
      if (query.url !== expected) throw AppError.field('validation_failed', 'url', t('validation.valid'));
      return renderQrCode(expected, normalizeHexColor(query.hexColor), query.format);
    },
  };
}

// Back office (issue 15): a user's cards and a search by name, for operators (no ownership check: role-checked routes).
export const listCardsOfUser = async (db: Executor, userId: string) =>
  (await repo.listCardsOfUser(db, userId)).map((row) => row.card);
export const searchCardOwnersByName = repo.searchCardOwnersByName;
