import { createHash } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatMoney } from '@tipcard/shared/money/format';
import { AppError } from '../../lib/app-error.ts';
import { t } from '../../lib/i18n.ts';
import {
  SANDBOX_SAVED_CARD_BEHAVIOUR,
  SANDBOX_TEST_CARDS,
  SANDBOX_WALLET_PAYERS,
  type SandboxCheckout,
  type SandboxOutcome,
  type SandboxProvider,
} from './sandbox-provider.ts';

/**
 * Attempts are counted per visitor and checkout, as a provider's hosted page counts them per session: one checkout
 * cannot be hammered, while a shop's many guests behind one address (or a test run) each keep their own budget.
 */
const attemptKey = (request: { ip: string; query: unknown }) =>
  `sandbox-pay:${request.ip}:${createHash('sha256')
    .update(String((request.query as { c?: unknown }).c ?? ''))
    .digest('base64url')
    .slice(0, 22)}`;

/** The signed checkout travels in the query: it is longer than a path parameter may be. */
const tokenQuery = z.object({ c: z.string().min(10).max(4_000) });
/** `wallet`: the guest tapped Apple Pay or Google Pay on the tip page, so the page opens as that wallet's sheet. */
const pageQuery = tokenQuery.extend({ wallet: z.enum(['apple_pay', 'google_pay']).optional() });
const WALLETS = {
  apple_pay: { name: 'Apple Pay', className: 'apple' },
  google_pay: { name: 'Google Pay', className: 'google' },
} as const;
type CheckoutProblem = 'enter_card' | 'invalid_number' | 'invalid_expiry' | 'expired' | 'invalid_cvc';

const payBody = z.object({
  method: z.enum(['card', 'apple_pay', 'google_pay']),
  card_number: z.string().max(40).optional(),
  expiry: z.string().max(20).optional(),
  cvc: z.string().max(10).optional(),
  wallet_payer: z.enum(SANDBOX_WALLET_PAYERS).optional(),
  deliver_twice: z.string().optional(),
});

/**
 * Why a typed card cannot be charged at all, checked before any attempt as a provider's hosted page checks it (Stripe's
 * "Your card number is invalid"): a number of the wrong length or failing its check digit, an expiry that is not MM/YY
 * or has passed, a CVC that is not 3 or 4 digits. Expiry and CVC are checked when sent: the page requires them, and
 * scripted payers (tests, the simulator) may leave them out, as the page's help says any will do.
 */
export function cardProblem(
  card: { digits: string; expiry?: string; cvc?: string },
  now: Date,
): Exclude<CheckoutProblem, 'enter_card'> | null {
  if (card.digits.length < 13 || card.digits.length > 19 || !passesLuhn(card.digits)) return 'invalid_number';
  const expiry = card.expiry?.trim();
  if (expiry) {
    const match = /^(\d{2})\s*\/?\s*(\d{2})$/.exec(expiry);
    const month = Number(match?.[1]);
    if (!match || month < 1 || month > 12) return 'invalid_expiry';
    const year = 2000 + Number(match[2]);
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) return 'expired';
  }
  const cvc = card.cvc?.trim();
  if (cvc && !/^\d{3,4}$/.test(cvc)) return 'invalid_cvc';
  return null;
}

/** The card number's check digit (ISO/IEC 7812): doubling every second digit from the right. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The page's one script (same origin, so the CSP's script-src 'self' lets it run): groups the card number in fours and
 * puts the slash in the expiry as the guest types. The page works without it.
 */
const CHECKOUT_SCRIPT = `(() => {
  const number = document.getElementById('card_number');
  const expiry = document.getElementById('expiry');
  number?.addEventListener('input', () => {
    const digits = number.value.replace(/\\D/g, '').slice(0, 19);
    number.value = digits.replace(/(\\d{4})(?=\\d)/g, '$1 ');
  });
  // Apple Pay is offered where the browser has it (Safari on Apple devices), as a hosted checkout does; a sheet the
  // guest already chose on the tip page stays.
  if (!('ApplePaySession' in window)) document.querySelectorAll('.apple[data-offered]').forEach((button) => button.remove());
  expiry?.addEventListener('input', (event) => {
    const digits = expiry.value.replace(/\\D/g, '').slice(0, 4);
    const deleting = event.inputType === 'deleteContentBackward';
    expiry.value = digits.length > 2 || (digits.length === 2 && !deleting) ? digits.slice(0, 2) + ' / ' + digits.slice(2) : digits;
  });
})();
`;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/**
 * The hosted checkout page: plain HTML and a form, as a provider's page would be (no script on our origin), in the
 * payer's language that the checkout was opened with (as Stripe Checkout's `locale`); opened on a wallet, only its
 * sheet.
 */
function checkoutPage(
  checkout: SandboxCheckout,
  token: string,
  options: { problem?: CheckoutProblem; wallet?: keyof typeof WALLETS } = {},
): string {
  const { wallet } = options;
  const { locale } = checkout;
  const text = (key: string, vars?: Record<string, string>) => escape(t(`checkout:sandbox.${key}`, vars, locale));
  const problem = options.problem && text(`problem.${options.problem}`);
  // The field the problem is about is marked, and described by the alert, for a screen reader landing on it.
  const invalid = (...problems: CheckoutProblem[]) =>
    options.problem && problems.includes(options.problem) ? ' aria-invalid="true" aria-describedby="problem" autofocus' : '';
  const action = `/api/sandbox/checkout?c=${encodeURIComponent(token)}`;
  // Written as the guest page writes it ("5,00 €" in French), so the amount reads the same on both pages.
  const amount = formatMoney(checkout.amount_cents, locale);
  const cards = Object.entries(SANDBOX_TEST_CARDS)
    .map(([number, outcome]) => {
      const saved = SANDBOX_SAVED_CARD_BEHAVIOUR[number];
      return `<li><code>${number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code> ${text(`outcome.${outcome}`)}${saved ? ` (${text(`once_saved.${saved}`)})` : ''}</li>`;
    })
    .join('');
  // Whose wallet pays: each simulated payer's wallet is the same payer every time, as a wallet is at a real provider.
  const walletPayer = `<label for="wallet_payer">${text('wallet_payer')}</label>
<select id="wallet_payer" name="wallet_payer">${SANDBOX_WALLET_PAYERS.map((payer) => `<option value="${payer}">${text('wallet_payer_option', { number: payer })}</option>`).join('')}</select>`;
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text('title', { amount })}</title>
<style>
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f4f9;color:#0f172a}
main{max-width:420px;margin:0 auto;padding:20px 16px 40px}.banner{background:#fef3c7;color:#78350f;border-radius:10px;padding:8px 12px;font-size:14px;margin-bottom:16px}
.box{background:#fff;border-radius:16px;padding:20px;box-shadow:0 1px 3px rgba(15,23,42,.08)}h1{font-size:15px;font-weight:500;color:#475569;margin:0}
.amount{font-size:34px;font-weight:700;margin:4px 0 20px}.wallet{display:block;width:100%;border:0;border-radius:10px;padding:13px;font-size:17px;font-weight:600;color:#fff;margin-bottom:10px;cursor:pointer}
.apple{background:#000}.google{background:#1f2937}.or{text-align:center;color:#64748b;font-size:13px;margin:14px 0}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 6px}input[type=text],select{width:100%;padding:12px;border:1px solid #cbd5e1;border-radius:10px;font-size:16px;background:#fff}select{margin-bottom:12px}
input:focus,select:focus,button:focus{outline:3px solid #93c5fd;outline-offset:2px}.row{display:flex;gap:10px;align-items:flex-end}.row>div{flex:1;min-width:0}
.pay{display:block;width:100%;margin-top:18px;border:0;border-radius:10px;padding:14px;font-size:17px;font-weight:700;background:#0b2a5b;color:#fff;cursor:pointer}
.cancel{display:block;width:100%;margin-top:12px;background:none;border:0;color:#334155;text-decoration:underline;font-size:15px;cursor:pointer}
.problem{background:#fee2e2;color:#7f1d1d;border-radius:10px;padding:10px 12px;margin-bottom:12px}.help{font-size:13px;color:#475569;margin-top:18px}
.help ul{padding-left:18px;margin:6px 0}.check{display:flex;gap:8px;align-items:center;font-weight:400;font-size:14px}
</style></head>
<body><main>
<p class="banner" role="note">${text('banner')}</p>
<div class="box">
<h1>${escape(checkout.description)}</h1>
<p class="amount">${escape(amount)}</p>
${problem ? `<p class="problem" id="problem" role="alert">${problem}</p>` : ''}
${
  wallet
    ? `<form method="post" action="${action}">
${walletPayer}
<button class="wallet ${WALLETS[wallet].className}" name="method" value="${wallet}" type="submit">${text('pay_with', { wallet: WALLETS[wallet].name })}</button>
</form>
<p class="or"><a href="/api/sandbox/checkout?c=${encodeURIComponent(token)}">${text('other_ways')}</a></p>`
    : `<form method="post" action="${action}">
${walletPayer}
<button class="wallet apple" name="method" value="apple_pay" type="submit" data-offered>${text('pay_with', { wallet: WALLETS.apple_pay.name })}</button>
<button class="wallet google" name="method" value="google_pay" type="submit">${text('pay_with', { wallet: WALLETS.google_pay.name })}</button>
</form>
<p class="or">${text('or_card')}</p>
<form method="post" action="${action}">
<input type="hidden" name="method" value="card">
<label for="card_number">${text('card_number')}</label>
<input id="card_number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required pattern="[0-9 \\-]{13,23}" maxlength="23" title="${text('problem.invalid_number')}"${invalid('invalid_number')}>
<div class="row"><div><label for="expiry">${text('expiry')}</label><input id="expiry" name="expiry" type="text" inputmode="numeric" placeholder="${text('expiry_placeholder')}" autocomplete="cc-exp" required pattern="(0[1-9]|1[0-2]) ?/? ?[0-9]{2}" maxlength="7" title="${text('problem.invalid_expiry')}"${invalid('invalid_expiry', 'expired')}></div>
<div><label for="cvc">${text('cvc')}</label><input id="cvc" name="cvc" type="text" inputmode="numeric" placeholder="123" autocomplete="cc-csc" required pattern="[0-9]{3,4}" maxlength="4" title="${text('problem.invalid_cvc')}"${invalid('invalid_cvc')}></div></div>
<label class="check"><input type="checkbox" name="deliver_twice" value="1"> ${text('deliver_twice')}</label>
<button class="pay" type="submit">${text('pay', { amount })}</button>
</form>`
}
<form method="post" action="/api/sandbox/checkout/cancel?c=${encodeURIComponent(token)}"><button class="cancel" type="submit">${text('cancel')}</button></form>
<div class="help">${text('test_cards')}<ul>${cards}</ul>${text('any_expiry')}</div>
</div></main><script src="/api/sandbox/checkout.js" defer></script></body></html>`;
}

/** The sandbox provider's hosted checkout (registered only when the sandbox is enabled). */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{ sandbox: SandboxProvider }> = async (app, { sandbox }) => {
  await app.register(formbody);
  const open = (token: string) => {
    const checkout = sandbox.openCheckout(token);
    if (!checkout) throw new AppError('not_found');
    return checkout;
  };

  app.get('/sandbox/checkout', { schema: { hide: true, querystring: pageQuery } }, async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(checkoutPage(open(request.query.c), request.query.c, { wallet: request.query.wallet })),
  );

  app.get('/sandbox/checkout.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CHECKOUT_SCRIPT),
  );

  app.post(
    '/sandbox/checkout',
    {
      onRequest: app.rateLimit({ max: 30, timeWindow: 60_000, keyGenerator: attemptKey }),
      schema: { hide: true, querystring: tokenQuery, body: payBody },
    },
    async (request, reply) => {
      const checkout = open(request.query.c);
      const { method, card_number: cardNumber = '', wallet_payer: walletPayer, deliver_twice: deliverTwice } = request.body;
      let outcome: SandboxOutcome = 'succeeded';
      if (method === 'card') {
        const digits = cardNumber.replace(/\D/g, '');
        const problem = digits
          ? cardProblem({ digits, expiry: request.body.expiry, cvc: request.body.cvc }, new Date())
          : 'enter_card';
        if (problem) {
          return reply
            .status(422)
            .type('text/html; charset=utf-8')
            .send(checkoutPage(checkout, request.query.c, { problem }));
        }
        const known = SANDBOX_TEST_CARDS[digits as keyof typeof SANDBOX_TEST_CARDS];
        outcome = known === undefined ? 'declined' : known;
      }
      await sandbox.complete(checkout, outcome, method, {
        deliverTwice: deliverTwice === '1',
        cardNumber,
        ...(walletPayer && { walletPayer }),
      });
      return reply.redirect(checkout.success_url, 303);
    },
  );

  app.post('/sandbox/checkout/cancel', { schema: { hide: true, querystring: tokenQuery } }, async (request, reply) => {
    const checkout = open(request.query.c);
    await sandbox.complete(checkout, 'canceled', 'none');
    return reply.redirect(checkout.cancel_url, 303);
  });
};
