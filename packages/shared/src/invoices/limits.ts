/** Invoice limits (DESIGN "Invoices and donations"), in integer cents; kept free of zod like the validation rules. */
export const INVOICE_MIN_CENTS = 100;
export const INVOICE_MAX_CENTS = 500_000;
export const INVOICE_DESCRIPTION_MAX_LENGTH = 200;
