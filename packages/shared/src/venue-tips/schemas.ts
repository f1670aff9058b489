import { z } from 'zod';

/** A whole: the percentages between a venue's teams are basis points summing to it (10000 = 100 %). */
export const BASIS_POINTS_WHOLE = 10_000;

/** Basis points as the language writes a percentage, with up to two decimals ("33,34 %", "70%"). */
export const formatPercent = (basisPoints: number, locale: string): string =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / BASIS_POINTS_WHOLE);

/** The venue card (decision 0058): one card for the whole place, its guest page and its link for the QR code. */
export const venueCardSchema = z.object({
  workplace_id: z.uuid(),
  card_id: z.uuid(),
  payment_url: z.string(),
});
export type VenueCard = z.infer<typeof venueCardSchema>;

/**
 * The percentages between the venue's teams in force: every team of the venue with its share in basis points; `id`
 * and `created_at` null while the venue never set any (the default: even between the teams).
 */
export const venuePercentagesSchema = z.object({
  workplace_id: z.uuid(),
  id: z.uuid().nullable(),
  created_at: z.string().nullable(),
  teams: z.array(
    z.object({
      team_id: z.uuid(),
      title: z.string(),
      member_count: z.number().int(),
      basis_points: z.number().int(),
    }),
  ),
  /** Whether the reader may set them (a venue admin). */
  can_edit: z.boolean(),
});
export type VenuePercentages = z.infer<typeof venuePercentagesSchema>;

/** PUT /workplaces/{id}/percentages: a new version, every team of the venue once, summing to 10000. */
export const venuePercentagesBody = z.object({
  shares: z
    .array(
      z.object({
        team_id: z.uuid(),
        basis_points: z.number().int().min(0).max(BASIS_POINTS_WHOLE),
      }),
    )
    .min(1)
    .max(100),
});
export type VenuePercentagesInput = z.infer<typeof venuePercentagesBody>;
