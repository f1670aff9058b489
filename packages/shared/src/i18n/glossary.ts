import type { Locale } from '../constants.ts';

/**
 * One concept of the product, the one word each language uses for it, and the words a translation must not use for it
 * (synonyms that made screens disagree, or words that mean something else). `npm run i18n:check` fails on an `avoid`
 * word or phrase found in any text of that language (whole words, any case; see glossary-check.ts).
 */
export interface GlossaryTerm {
  concept: string;
  meaning: string;
  term: Record<Locale, string>;
  avoid: Partial<Record<Locale, readonly string[]>>;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    concept: 'tip',
    meaning: 'Money a guest gives a person through their card page.',
    term: { en: 'tip', lv: 'dzeramnauda', fr: 'pourboire', es: 'propina' },
    avoid: {},
  },
  {
    concept: 'payout',
    meaning: "Money the user takes out of their balance to their own bank account (the product's withdrawal).",
    term: { en: 'payout / withdrawal', lv: 'izmaksa', fr: 'retrait', es: 'retiro' },
    avoid: {
      // virement is the bank transfer that carries a retrait (return reasons, bank details), never the withdrawal itself
      fr: ['historique des virements', 'retour aux virements', 'confirmer le virement', 'frais de virement', 'par virement'],
      es: ['las transferencias llegan', 'se han pagado'],
    },
  },
  {
    concept: 'fee',
    meaning: "The platform's transaction fee on a payment, shown to the guest, who may cover it; also the payout fee.",
    term: { en: 'fee', lv: 'komisija', fr: 'frais', es: 'comisión' },
    // izmaksas (costs) is the plural of izmaksa (payout): on the guest page it read as "payouts"
    avoid: { lv: ['darījuma izmaksas', 'platformas maksas', 'komisijas maksas', 'pakalpojuma maksu', 'maksa līdz'] },
  },
  {
    concept: 'hold',
    meaning: 'A received tip not yet available for a payout.',
    term: { en: 'on hold', lv: 'rezervēts', fr: 'en attente', es: 'retenido' },
    avoid: { lv: ['aizturēts', 'aizturēta', 'aizturēti', 'aizturētas', 'aizturētajai'] },
  },
  {
    concept: 'balance',
    meaning: 'Money the user has on Tipcard.',
    term: { en: 'balance', lv: 'atlikums', fr: 'solde', es: 'saldo' },
    avoid: { lv: ['bilance', 'bilancē'] },
  },
  {
    concept: 'card',
    meaning: "A user's QR card: the public profile a guest pays through, and its printed form.",
    term: { en: 'card', lv: 'karte', fr: 'carte', es: 'tarjeta' },
    avoid: { lv: ['kartīte', 'kartītes', 'kartītei', 'kartīti', 'kartītē'] },
  },
  {
    concept: 'referral',
    meaning: 'Inviting a friend with a personal link and earning the platform fees on their first tips.',
    term: { en: 'referral', lv: 'draugu uzaicināšana', fr: 'parrainage', es: 'invitación' },
    avoid: {
      // ieteikumi means "suggestions"
      lv: ['ieteikumi', 'ieteikums', 'ieteikuma', 'ieteikumu', 'ieteikšana', 'partneru programma'],
      fr: ['programme d’affiliation', '« Parrainages »'],
      es: ['programa de afiliados'],
    },
  },
  {
    concept: 'referral reward',
    meaning: 'The one bonus credited to the balance for an invited friend.',
    term: { en: 'referral bonus', lv: 'uzaicināšanas bonuss', fr: 'prime de parrainage', es: 'bono por invitación' },
    avoid: { fr: ['bonus de parrainage'], es: ['bonificación'] },
  },
  {
    concept: 'team link',
    meaning: 'The link a team admin sends to colleagues so they ask to join the team (not the referral link).',
    term: {
      en: 'invite link',
      lv: 'uzaicinājuma saite',
      fr: 'lien d’invitation',
      es: 'enlace para unirse al equipo',
    },
    avoid: {},
  },
  {
    concept: 'venue',
    meaning: 'The workplace as a whole (a restaurant, a hotel, a salon): its teams, admins, QR code and venue card.',
    term: { en: 'venue', lv: 'darba vieta', fr: 'établissement', es: 'establecimiento' },
    // uzņēmums is a company (the verification's business details); local is a bar's word, not a hotel's or a salon's
    avoid: { lv: ['uzņēmuma administrators', 'uzņēmuma komandas'], es: ['del local', 'todo el local', 'tu local'] },
  },
  {
    concept: 'split rule',
    meaning: "How a team's tips are shared among its members: evenly, by hours worked or by points per role (decision 0045).",
    term: { en: 'split rule', lv: 'sadales noteikums', fr: 'règle de partage', es: 'regla de reparto' },
    avoid: { fr: ['règle de répartition'], es: ['regla de distribución'] },
  },
  {
    concept: 'shift',
    meaning: 'A period a team member works, started and ended by the member or entered by the admin.',
    term: { en: 'shift', lv: 'maiņa', fr: 'service', es: 'turno' },
    avoid: { fr: ['quart de travail', 'pointer'], es: ['fichar'] },
  },
  {
    concept: 'sign in / sign out',
    meaning: 'Starting and ending a session with the phone number and SMS code.',
    term: {
      en: 'log in / log out',
      lv: 'pieslēgties / atslēgties',
      fr: 'se connecter / se déconnecter',
      es: 'iniciar sesión / cerrar sesión',
    },
    avoid: {
      lv: [
        'ienākt',
        'ienāktu',
        'iziet',
        'pierakstīties',
        'pierakstāties',
        'pierakstoties',
        'pierakstīšanās',
        'izrakstīties',
        'izrakstīts',
        'ielogoties',
        'izlogoties',
      ],
    },
  },
  {
    concept: 'support ticket',
    meaning: "A user's written question to support inside the app.",
    term: { en: 'ticket', lv: 'pieteikums', fr: 'ticket', es: 'ticket' },
    avoid: { lv: ['atbalsta pieprasījums', 'atbalsta pieprasījumi', 'atbalsta pieprasījumu', 'atbalsta pieprasījumus'] },
  },
  {
    concept: 'support',
    meaning: "Tipcard's support team, as the user writes to it.",
    term: { en: 'support', lv: 'atbalsta dienests', fr: 'assistance', es: 'equipo de soporte' },
    // soporte without an article reads like a proper name
    avoid: { es: ['con soporte', 'a soporte', 'cuando soporte'] },
  },
  {
    concept: 'receipt',
    meaning: "The payer's proof of a payment or donation.",
    term: { en: 'receipt', lv: 'kvīts', fr: 'reçu', es: 'recibo' },
    avoid: { lv: ['čeks', 'čeku', 'čeka'] },
  },
  {
    concept: 'donation statement',
    meaning: "A donor's yearly list of donations; not a charity's official tax certificate.",
    term: { en: 'statement', lv: 'ziedojumu pārskats', fr: 'relevé de dons', es: 'resumen de donaciones' },
    avoid: { fr: ['reçu fiscal'], es: ['certificado de donaciones'] },
  },
  {
    concept: 'wallet payment',
    meaning: 'Paying with Apple Pay or Google Pay.',
    term: { en: 'Apple Pay or Google Pay', lv: 'Apple Pay vai Google Pay', fr: 'portefeuille électronique', es: 'monedero' },
    // maciņš is a small purse; a bare portefeuille is a leather wallet
    avoid: { lv: ['maciņu', 'maciņš', 'maku'], fr: ['autre portefeuille', 'carte et portefeuille,'] },
  },
  {
    concept: 'charged',
    meaning: "Money taken from the payer's card.",
    term: { en: 'charged', lv: 'iekasēts', fr: 'débité', es: 'cobrado' },
    avoid: { lv: ['tika noņemta', 'netika noņemta'] },
  },
  {
    concept: 'error',
    meaning: 'The generic message of an unexpected failure, in the register of a payment product.',
    term: { en: 'Something went wrong', lv: 'Radās kļūda', fr: 'Une erreur est survenue', es: 'Algo ha salido mal' },
    avoid: { lv: ['nogāja greizi'] },
  },
  {
    concept: 'amount in euros',
    meaning: 'Money in prose, written as the app shows it: "€2" in English, "2 €" in Latvian, French and Spanish.',
    term: { en: '€2', lv: '2 €', fr: '2 €', es: '2 €' },
    avoid: { en: ['EUR'], lv: ['EUR'], fr: ['EUR'], es: ['EUR'] },
  },
  {
    concept: 'form of address',
    meaning: 'How the product speaks to the user: lv jūs, fr vous (peer share texts tu), es tú.',
    term: { en: 'you', lv: 'jūs', fr: 'vous', es: 'tú' },
    avoid: { es: ['contacte', 'inténtelo', 'recargue', 'en su lugar'] },
  },
  {
    concept: 'e-mail',
    meaning: 'Electronic mail.',
    term: { en: 'e-mail', lv: 'e-pasts', fr: 'e-mail', es: 'correo electrónico' },
    avoid: { es: ['e-mail', 'e-mails'] },
  },
];
