/**
 * GSM 03.38, the 7-bit alphabet every phone reads: its basic set and the characters its extension table adds (each of
 * those takes two septets). One character outside both makes the whole message UCS-2: 70 characters a part, not 160.
 */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM7_EXTENSION = new Set('^{}\\[~]|€\f');

/** The no-break spaces the typography filter writes (French high punctuation, an amount with its currency). */
const NO_BREAK_SPACES = /[\u00A0\u202F]/g;

const isGsm7 = (text: string) => [...text].every((char) => GSM7_BASIC.has(char) || GSM7_EXTENSION.has(char));

/**
 * An SMS body as it is sent (decision 0035): where the typography filter's no-break spaces are the only characters
 * outside GSM-7, they become plain spaces, so a French text costs 160-character parts, not 70-character ones; a phone
 * wraps an SMS as it likes anyway. A text that needs UCS-2 for its letters (Latvian ā, French ê) keeps them.
 */
export function smsBody(text: string): string {
  if (isGsm7(text)) return text;
  const plain = text.replace(NO_BREAK_SPACES, ' ');
  return isGsm7(plain) ? plain : text;
}
