import { formatLanguage, htmlLang, t, type TextLanguage } from '../../lib/i18n.ts';
import { escapeHtml } from '../web-shell/web-shell.service.ts';
import { companyLines, receiptLines } from './receipt-text.ts';
import { receiptPath, type ReceiptView } from './receipt-view.ts';

/** What the page says after its e-mail form was sent (the form's redirect names it). */
export const EMAIL_OUTCOMES = ['sent', 'invalid', 'rate_limited'] as const;
export type EmailOutcome = (typeof EMAIL_OUTCOMES)[number];

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f4f9;color:#1e293b}
main{max-width:560px;margin:0 auto;padding:20px 16px 40px}.brand{display:flex;align-items:center;gap:8px;font-weight:700;color:#0b1736;font-size:18px;margin-bottom:16px}
.mark{width:24px;height:24px;border-radius:7px;background:#1a3168}.box{background:#fff;border-radius:16px;padding:20px;box-shadow:0 1px 3px rgba(15,23,42,.08)}
h1{font-size:24px;line-height:1.25;color:#0b1736;margin:0 0 4px}.status{display:inline-block;border-radius:999px;padding:2px 10px;font-size:14px;font-weight:600;background:#dcfce7;color:#14532d;margin:0 0 16px}
.status.refunded,.status.partly_refunded{background:#fef3c7;color:#78350f}dl{margin:0}.line{display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 16px;padding:10px 0;border-top:1px solid #e2e8f0}
dt{color:#475569}dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere}.strong dd{font-size:18px;color:#0b1736}
.actions{margin-top:20px}.button{display:inline-block;border-radius:10px;padding:12px 18px;font-weight:700;background:#0b2a5b;color:#fff;text-decoration:none}
form{margin-top:20px}label{display:block;font-size:15px;font-weight:600;margin-bottom:6px}.row{display:flex;gap:8px;flex-wrap:wrap}
input{flex:1;min-width:0;padding:11px;font-family:inherit;border:1px solid #94a3b8;border-radius:10px;font-size:16px}button{font-family:inherit;border:1px solid #0b2a5b;border-radius:10px;padding:11px 16px;font-size:16px;font-weight:600;background:#fff;color:#0b2a5b;cursor:pointer}
a:focus,input:focus,button:focus{outline:3px solid #93c5fd;outline-offset:2px}.notice{margin:10px 0 0;font-size:15px}.notice.bad{color:#991b1b}
.thanks{margin:0 0 16px;padding:14px;border-radius:12px;background:#f8fafc;border:1px solid #e2e8f0}.thanks h2{font-size:15px;margin:0 0 6px;color:#0b1736}
.thanks p{margin:0;white-space:pre-line;overflow-wrap:anywhere}.thanks img{display:block;max-width:100%;height:auto;max-height:240px;border-radius:10px;margin:0 0 10px}
.quote{color:#475569;font-size:14px;margin-top:16px}footer{color:#475569;font-size:13px;margin-top:20px;text-align:center}footer p{margin:2px 0}`;

/**
 * The receipt as a page that needs no script: its lines, the PDF to download, a form that e-mails it (the address is
 * kept for the refund receipts), the operator's details. Rendered on the server in the payer's language.
 */
export function renderReceiptPage(view: ReceiptView, token: string, locale: TextLanguage, outcome: EmailOutcome | null): string {
  const text = (key: string, vars?: Record<string, string>) => escapeHtml(t(`receipts:${key}`, vars, locale));
  const lines = receiptLines(view, locale)
    .map(
      (line) =>
        `<div class="line${line.strong ? ' strong' : ''}"><dt>${escapeHtml(line.label)}</dt><dd>${escapeHtml(line.value)}</dd></div>`,
    )
    .join('');
  const notice = outcome
    ? `<p class="notice${outcome === 'sent' ? '' : ' bad'}" role="status">${text(`email_${outcome}`)}</p>`
    : '<p class="notice" role="status"></p>';
  const company = companyLines(view, locale)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('');
  return `<!doctype html>
<html lang="${htmlLang(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${text('title', { reference: view.reference })} · Tipcard</title>
<style>${STYLE}</style></head>
<body><main>
<div class="brand" aria-hidden="true"><span class="mark"></span>Tipcard</div>
<div class="box">
<h1>${text('title', { reference: view.reference })}</h1>
<p class="status ${view.status}">${text(`status_${view.status}`)}</p>
${thankYouHtml(view, locale)}<dl>${lines}</dl>
<p class="actions"><a class="button" href="${receiptPath(formatLanguage(locale), token, '/receipt.pdf')}" download>${text('download')}</a></p>
<form method="post" action="${receiptPath(formatLanguage(locale), token, '/email')}">
<label for="receipt-email">${text('email_label')}</label>
<div class="row"><input id="receipt-email" name="email" type="email" autocomplete="email" required maxlength="254"><button type="submit">${text('email_send')}</button></div>
${notice}
</form>
<p class="quote">${text('quote')}</p>
</div>
<footer>${company}</footer>
</main></body></html>`;
}

/** The recipient's thank-you, its words and photo escaped (the owner typed them: nothing in them may run). */
function thankYouHtml(view: ReceiptView, locale: TextLanguage): string {
  if (!view.thankYou) return '';
  const photo = view.thankYou.imageUrl ? `<img src="${escapeHtml(view.thankYou.imageUrl)}" alt="" loading="lazy">` : '';
  const title = escapeHtml(t('receipts:thank_you_from', { name: view.recipientName }, locale));
  return `<section class="thanks" aria-labelledby="thanks-title" data-testid="receipt-thank-you">${photo}<h2 id="thanks-title">${title}</h2><p>${escapeHtml(view.thankYou.text)}</p></section>\n`;
}

/** The page for a link we did not sign or a payment without a receipt: says so, names nothing. */
export function renderReceiptNotFound(locale: TextLanguage): string {
  const text = (key: string) => escapeHtml(t(`receipts:${key}`, {}, locale));
  return `<!doctype html>
<html lang="${htmlLang(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${text('not_found_title')} · Tipcard</title>
<style>${STYLE}</style></head>
<body><main>
<div class="brand" aria-hidden="true"><span class="mark"></span>Tipcard</div>
<div class="box"><h1>${text('not_found_title')}</h1><p>${text('not_found_text')}</p></div>
</main></body></html>`;
}
