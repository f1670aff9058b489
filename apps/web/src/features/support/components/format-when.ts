import { currentLocale } from '../../../lib/i18n.ts';

/** A date and time in the user's language, as the ticket list and conversation show them. */
export const formatWhen = (iso: string) => new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
