import type { Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { decimalAmount, formatMoney } from '@tipcard/shared/money/format';
import { formatPercent } from '@tipcard/shared/venue-tips/schemas';
import { csvOf } from '../../lib/csv.ts';
import { t } from '../../lib/i18n.ts';
import { A4, COLORS, createPdf, drawHairline, drawLogo, pdfBytes, style } from '../../lib/pdf-document.ts';
import type { AdjustmentRow } from './period-adjustments.repository.ts';
import { monthOfInstant, periodSpan } from './team-periods.ts';
import type { TipSplitRow } from './teams.repository.ts';

/**
 * One member's allocation of one team tip, as recorded with its credit (decision 0045): what the law's records of a
 * tip and its allocation hold (decision 0053): when, which team, the tip, the rule and basis, the member's
 * inputs against the total, and their share.
 */
export interface TipRecord {
  at: Date;
  paymentId: string;
  team: string;
  workplace: string;
  rule: TipSplitRow['ruleKind'];
  basis: TipSplitRow['basis'];
  /** What the members received of the tip in all (tip less fee), and the fee. */
  tipNetCents: number;
  tipFeeCents: number;
  sharing: number;
  totalWeight: number;
  userId: string;
  member: string;
  role: string | null;
  minutes: number | null;
  points: number | null;
  weight: number;
  netCents: number;
  feeCents: number;
  /** For a team's part of a venue tip (decision 0058): the venue tip to members and the team's percentage of it. */
  venue: { tipNetCents: number; basisPoints: number } | null;
}

/** The records of a recorded split: one per member it names, `onlyUserId` keeping one member's own. */
export function recordsOfSplit(
  split: TipSplitRow,
  context: { team: string; workplace: string; nameOf: (userId: string) => string },
  onlyUserId?: string,
): TipRecord[] {
  const totalWeight = split.shares.reduce((sum, share) => sum + share.weight, 0);
  const sharing = split.shares.filter((share) => share.weight > 0).length;
  return split.shares
    .filter((share) => !onlyUserId || share.userId === onlyUserId)
    .map((share) => ({
      at: split.at,
      paymentId: split.paymentId,
      team: context.team,
      workplace: context.workplace,
      rule: split.ruleKind,
      basis: split.basis,
      tipNetCents: split.totalCents - split.feeCents,
      tipFeeCents: split.feeCents,
      sharing,
      totalWeight,
      userId: share.userId,
      member: context.nameOf(share.userId),
      role: share.role,
      minutes: share.minutes,
      points: share.points,
      weight: share.weight,
      netCents: share.netCents,
      feeCents: share.feeCents,
      venue: split.venuePart
        ? {
            tipNetCents: split.venuePart.venueTotalCents - split.venuePart.venueFeeCents,
            basisPoints: split.venuePart.basisPoints,
          }
        : null,
    }));
}

/**
 * One member's side of an adjustment of a locked period (decision 0059): what it moved from them (negative) or to them,
 * with whom, and why. Records list it with the tips of its period.
 */
export interface AdjustmentRecord {
  at: Date;
  adjustmentId: string;
  month: string;
  team: string;
  workplace: string;
  userId: string;
  member: string;
  /** The other member of the adjustment. */
  counterpart: string;
  /** Signed cents: negative for the giver, positive for the receiver. */
  cents: number;
  reason: string;
}

/** Both sides of an adjustment (the giver's first), `onlyUserId` keeping one member's own. */
export function recordsOfAdjustment(
  row: AdjustmentRow,
  context: { team: string; workplace: string; nameOf: (userId: string) => string },
  onlyUserId?: string,
): AdjustmentRecord[] {
  const side = (userId: string, other: string, cents: number): AdjustmentRecord => ({
    at: row.createdAt,
    adjustmentId: row.id,
    month: row.month,
    team: context.team,
    workplace: context.workplace,
    userId,
    member: context.nameOf(userId),
    counterpart: context.nameOf(other),
    cents,
    reason: row.reason,
  });
  return [side(row.fromUserId, row.toUserId, -row.amountCents), side(row.toUserId, row.fromUserId, row.amountCents)].filter(
    (record) => !onlyUserId || record.userId === onlyUserId,
  );
}

const CSV_COLUMNS = [
  'paid_at',
  'payment_reference',
  'workplace',
  'team',
  'rule',
  'basis',
  'tip_to_members',
  'tip_fee',
  'members_sharing',
  'member',
  'member_id',
  'role',
  'minutes',
  'points',
  'weight',
  'total_weight',
  'share',
  'share_of_fee',
  'currency',
  'record',
  'period',
  'counterpart',
  'reason',
  'card',
  'venue_tip_to_members',
  'team_percentage',
] as const;

/**
 * The records as CSV: instants in UTC, amounts as decimals, one row per member and tip, then one per member and
 * adjustment. `record` says which: `tip`, `adjustment_given` or `adjustment_received` (the `share` is the amount moved,
 * unsigned, as a spreadsheet would take a leading minus for a formula; the tip columns are empty).
 */
export function tipRecordsCsv(records: TipRecord[], adjustments: AdjustmentRecord[] = []): string {
  return csvOf(CSV_COLUMNS, [
    ...records.map((r) => [
      r.at.toISOString(),
      referenceOf(r.paymentId),
      r.workplace,
      r.team,
      r.rule,
      r.basis,
      decimalAmount(r.tipNetCents),
      decimalAmount(r.tipFeeCents),
      r.sharing,
      r.member,
      r.userId,
      r.role,
      r.minutes,
      r.points,
      r.weight,
      r.totalWeight,
      decimalAmount(r.netCents),
      decimalAmount(r.feeCents),
      'EUR',
      'tip',
      monthOfInstant(r.at),
      null,
      null,
      r.venue ? 'venue' : 'team',
      r.venue ? decimalAmount(r.venue.tipNetCents) : null,
      r.venue ? percentOf(r.venue.basisPoints) : null,
    ]),
    ...adjustments.map((a) => [
      a.at.toISOString(),
      referenceOf(a.adjustmentId),
      a.workplace,
      a.team,
      null,
      null,
      null,
      null,
      null,
      a.member,
      a.userId,
      null,
      null,
      null,
      null,
      null,
      decimalAmount(Math.abs(a.cents)),
      decimalAmount(0),
      'EUR',
      a.cents < 0 ? 'adjustment_given' : 'adjustment_received',
      a.month,
      a.counterpart,
      a.reason,
      null,
      null,
      null,
    ]),
  ]);
}

/** Basis points as a percentage with two decimals, for machines ("70.00"): integer maths, no float. */
const percentOf = (basisPoints: number) => `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`;

/** The short payment reference the receipts and the back office show. */
const referenceOf = (paymentId: string) => paymentId.slice(0, 8).toUpperCase();

/** Times on paper are the reader's, or else the service's home time; the header names the zone. */
const HOME_ZONE = 'Europe/Riga';
const MARGIN = 40;

/** The member's part of a tip in words: minutes or points against the total, or one of the members sharing it. */
function partOf(record: TipRecord, locale: Locale): string {
  const tr = (key: string, vars: Record<string, string | number>) => t(`documents.tip_records.${key}`, vars, locale);
  const own =
    record.weight === 0
      ? tr('part_none', {})
      : record.basis === 'hours'
        ? tr('part_hours', { minutes: record.minutes ?? 0, total: record.totalWeight })
        : record.basis === 'points'
          ? tr('part_points', { points: record.points ?? 0, total: record.totalWeight })
          : tr('part_even', { count: record.sharing });
  if (!record.venue) return own;
  const percent = formatPercent(record.venue.basisPoints, locale);
  return `${own} · ${tr('part_venue', { percent, tip: formatMoney(record.venue.tipNetCents, locale) })}`;
}

/**
 * The records as a PDF in the reader's language: who or which team, the period, every tip's allocation (date, team or
 * member, the tip, the rule, the member's part, the share), and each member's total.
 */
export async function renderTipRecordsPdf(input: {
  locale: Locale;
  subject: string;
  from: Date;
  to: Date;
  /** A member's own records name the team of each line; a team's name the member. */
  view: 'member' | 'team';
  records: TipRecord[];
  /** Adjustments of locked periods in the span, listed after the tips and counted in each member's total. */
  adjustments?: AdjustmentRecord[];
  now: Date;
  timeZone: string | undefined;
}): Promise<Buffer> {
  const { locale, records } = input;
  const zone = input.timeZone ?? HOME_ZONE;
  const tr = (key: string, vars: Record<string, string | number> = {}) => t(`documents.tip_records.${key}`, vars, locale);
  const title = tr('title');
  const doc = createPdf({ title: `Tipcard — ${title}`, locale });
  const width = A4.width - MARGIN * 2;
  const day = (date: Date) => formatDate(date, 'longDate', locale, { timeZone: zone });
  drawLogo(doc, MARGIN, MARGIN, 24, 'light');
  style(doc, 'bold', 18, COLORS.ink).text(title, MARGIN, MARGIN + 44, { width });
  style(doc, 'semibold', 11, COLORS.text).text(input.subject, MARGIN, MARGIN + 70, { width });
  // The period is [from, to): its last day is the one before `to`.
  const lastDay = new Date(input.to.getTime() - 1);
  style(doc, 'regular', 9, COLORS.muted).text(
    `${tr('period', { from: day(input.from), to: day(lastDay) })} · ${tr('times', { zone })} · ${tr('made', { date: day(input.now) })}`,
    MARGIN,
    MARGIN + 88,
    { width },
  );

  const columns = [
    { key: 'date', x: 0, w: 92 },
    { key: input.view === 'member' ? 'team' : 'member', x: 96, w: 110 },
    { key: 'tip', x: 210, w: 62, right: true },
    { key: 'rule', x: 280, w: 88 },
    { key: 'part', x: 372, w: 76 },
    { key: 'share', x: 452, w: width - 452, right: true },
  ] as const;
  let y = MARGIN + 116;
  const header = () => {
    style(doc, 'semibold', 8, COLORS.muted);
    for (const column of columns)
      doc.text(tr(`column_${column.key}`), MARGIN + column.x, y, {
        width: column.w,
        align: 'right' in column ? 'right' : 'left',
      });
    y += 14;
    drawHairline(doc, MARGIN, y, width);
    y += 6;
  };
  header();
  if (records.length === 0) {
    style(doc, 'regular', 10, COLORS.text).text(tr('none'), MARGIN, y + 4, { width });
    y += 24;
  }
  for (const record of records) {
    const cells: Record<(typeof columns)[number]['key'], string> = {
      date: formatDate(record.at, 'dateTime', locale, { timeZone: zone }),
      team: record.team,
      member: record.member,
      tip: formatMoney(record.tipNetCents, locale),
      rule: t(`teams:rules.kind.${record.rule}`, {}, locale),
      part: partOf(record, locale),
      share: formatMoney(record.netCents, locale),
    };
    style(doc, 'regular', 8.5, COLORS.text);
    const height = Math.max(...columns.map((column) => doc.heightOfString(cells[column.key], { width: column.w }))) + 6;
    if (y + height > A4.height - MARGIN - 40) {
      doc.addPage();
      y = MARGIN;
      header();
      style(doc, 'regular', 8.5, COLORS.text);
    }
    for (const column of columns)
      doc.text(cells[column.key], MARGIN + column.x, y, { width: column.w, align: 'right' in column ? 'right' : 'left' });
    y += height;
  }

  const adjustments = input.adjustments ?? [];
  if (adjustments.length > 0) {
    const columnsOfAdjustment = [
      { key: 'date', x: 0, w: 92 },
      { key: 'member', x: 96, w: 110 },
      { key: 'adjustment', x: 210, w: 238 },
      { key: 'share', x: 452, w: width - 452 },
    ] as const;
    if (y > A4.height - MARGIN - 80) {
      doc.addPage();
      y = MARGIN;
    }
    y += 10;
    style(doc, 'bold', 10, COLORS.ink).text(tr('adjustments_title'), MARGIN, y, { width });
    y += 16;
    drawHairline(doc, MARGIN, y, width);
    y += 6;
    for (const adjustment of adjustments) {
      const cells: Record<(typeof columnsOfAdjustment)[number]['key'], string> = {
        date: formatDate(adjustment.at, 'dateTime', locale, { timeZone: zone }),
        member: input.view === 'member' ? adjustment.team : adjustment.member,
        adjustment: tr(adjustment.cents < 0 ? 'adjustment_given' : 'adjustment_received', {
          member: adjustment.counterpart,
          month: formatDate(periodSpan(adjustment.month).from, 'month', locale, { timeZone: 'UTC' }),
          reason: adjustment.reason,
        }),
        share: formatMoney(adjustment.cents, locale),
      };
      style(doc, 'regular', 8.5, COLORS.text);
      const height =
        Math.max(...columnsOfAdjustment.map((column) => doc.heightOfString(cells[column.key], { width: column.w }))) + 6;
      if (y + height > A4.height - MARGIN - 40) {
        doc.addPage();
        y = MARGIN;
        style(doc, 'regular', 8.5, COLORS.text);
      }
      for (const column of columnsOfAdjustment)
        doc.text(cells[column.key], MARGIN + column.x, y, {
          width: column.w,
          align: column.key === 'share' ? 'right' : 'left',
        });
      y += height;
    }
  }

  const totals = new Map<string, number>();
  for (const record of records) totals.set(record.member, (totals.get(record.member) ?? 0) + record.netCents);
  for (const adjustment of adjustments) totals.set(adjustment.member, (totals.get(adjustment.member) ?? 0) + adjustment.cents);
  if (y > A4.height - MARGIN - 60 - totals.size * 16) {
    doc.addPage();
    y = MARGIN;
  }
  drawHairline(doc, MARGIN, y + 4, width);
  y += 12;
  for (const [member, cents] of [...totals].sort(([a], [b]) => a.localeCompare(b, locale))) {
    style(doc, 'bold', 10, COLORS.ink);
    doc.text(tr('total', { member }), MARGIN, y, { width: width - 110 });
    doc.text(formatMoney(cents, locale), MARGIN + width - 110, y, { width: 110, align: 'right' });
    y += 16;
  }
  style(doc, 'regular', 8, COLORS.muted).text(tr('note'), MARGIN, y + 12, { width });
  return pdfBytes(doc);
}
