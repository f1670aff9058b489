import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES, MINIMUM_AGE } from '../constants.ts';
import { requiredString, rule } from '../validation.ts';

/** Identity verification (spec 2 `/verification`, 3 "Verification forms", 4). */
export const VERIFICATION_STATUSES = ['not_started', 'pending', 'approved', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_KINDS = ['person', 'company'] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];

/** Documents may be PDF, JPEG or PNG, at most 10 MB; the server decides the type by content, not by these. */
export const DOCUMENT_TYPES: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
};
export const DOCUMENT_MAX_BYTES = MAX_UPLOAD_BYTES;

/** Whole years between a YYYY-MM-DD birthday and `today` (both calendar dates, no time zone involved). */
export function ageOn(birthday: string, today: Date): number {
  const [year, month, day] = birthday.split('-').map(Number) as [number, number, number];
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  const d = today.getUTCDate();
  return y - year - (m < month || (m === month && d < day) ? 1 : 0);
}

/** A real calendar date, YYYY-MM-DD, of someone at least 16 today and born after 1900. */
const birthday = requiredString(10)
  .pipe(z.iso.date({ error: rule('valid') }))
  .refine((value) => value >= '1900-01-01', rule('valid'))
  .refine((value) => ageOn(value, new Date()) >= MINIMUM_AGE, rule('min_age'));

/** An IBAN as people type it (spaces, lower case) stored in its electronic form; checksum and country format. */
const iban = requiredString(50)
  .transform((value) => electronicFormatIBAN(value) ?? '')
  .refine((value) => isValidIBAN(value), rule('iban'));

/** A document as base64 JSON (spec 3 "Attachment": content, name, mime). */
export const documentUpload = z.object(
  {
    // The route's body limit bounds the size; this bound only keeps the schema finite.
    content: requiredString(20_000_000),
    name: requiredString(200),
    mime: requiredString(100),
  },
  { error: (issue) => (issue.input == null ? rule('required') : rule('valid')) },
);
export type DocumentUpload = z.input<typeof documentUpload>;

/** The person form's typed fields (the web form validates these; documents are checked apart). */
export const personFields = z.object({
  first_name: requiredString(100),
  last_name: requiredString(100),
  birthday,
  personal_code: requiredString(40),
  address: requiredString(300),
});
export type PersonFields = z.input<typeof personFields>;

/** The company form's typed fields: the company, its director or representative, and its bank account. */
export const companyFields = z.object({
  company_name: requiredString(200),
  registration_number: requiredString(40),
  representative_name: requiredString(200),
  representative_birthday: birthday,
  iban,
});
export type CompanyFields = z.input<typeof companyFields>;

export const PERSON_DOCUMENTS = ['document_front', 'document_back'] as const;
export const COMPANY_DOCUMENTS = ['registration_document'] as const;
export type DocumentField = (typeof PERSON_DOCUMENTS)[number] | (typeof COMPANY_DOCUMENTS)[number];

export const verificationBody = z.discriminatedUnion(
  'kind',
  [
    personFields.extend({ kind: z.literal('person'), document_front: documentUpload, document_back: documentUpload }),
    companyFields.extend({ kind: z.literal('company'), registration_document: documentUpload }),
  ],
  { error: rule('choice') },
);
export type VerificationBody = z.input<typeof verificationBody>;

export const verificationSchema = z.object({
  status: z.enum(VERIFICATION_STATUSES),
  kind: z.enum(VERIFICATION_KINDS).nullable(),
  /** Why the operator rejected the request; null otherwise. */
  reason: z.string().nullable(),
  submitted_at: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  /** Received tips from this amount on need verification before a payout (the reason the app gives). */
  limit_cents: z.number().int(),
});
export type Verification = z.infer<typeof verificationSchema>;
