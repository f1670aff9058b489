import { describe, expect, it } from 'vitest';
import { pushNoticeOf } from './push-notice.ts';

const NOTICE_ID = '0b4f3c2e-8f7a-4d8e-9a51-3c2b1a0f9e8d';

describe('the push notice of an in-app notice', () => {
  it('says what the app says, in the user’s language, and opens the notices', () => {
    const notice = {
      kind: 'team_period_closed',
      team: 'Cuisine',
      workplace: 'Café Rīga',
      rule: null,
      month: '2026-10',
      amount_cents: null,
    } as const;
    const fr = pushNoticeOf({ type: 'notice', notice_id: NOTICE_ID, notice }, 'fr');
    expect(fr).toMatchObject({ title: 'Votre équipe', url: '/#/fr/notices', tag: `notice-${NOTICE_ID}` });
    expect(fr!.body.replace(/[\u00A0\u202F]/g, ' ')).toBe(
      'L’administrateur a clôturé une période de pourboires. Période : octobre 2026. Équipe : Cuisine (Café Rīga). Vous avez 24 heures pour contester sur la page Lieu de travail ; ensuite la période est verrouillée.',
    );
    const rule = {
      kind: 'team_rule_changed',
      team: 'Cocina',
      workplace: 'Café Rīga',
      rule: 'hours',
      month: null,
      amount_cents: null,
    } as const;
    expect(pushNoticeOf({ type: 'notice', notice_id: NOTICE_ID, notice: rule }, 'es')!.body).toContain(
      'Regla de reparto: Según las horas trabajadas',
    );
  });

  it('names the amount an adjustment of a locked period moved, formatted for the reader', () => {
    const notice = {
      kind: 'team_period_adjusted_received',
      team: 'Cocina',
      workplace: 'Café Rīga',
      rule: null,
      month: '2026-10',
      amount_cents: 1_250,
    } as const;
    const es = pushNoticeOf({ type: 'notice', notice_id: NOTICE_ID, notice }, 'es');
    expect(es!.body.replace(/[\u00A0\u202F]/g, ' ')).toContain('ha movido 12,50 € a tu saldo');
    expect(es!.body).not.toContain('{{');
  });
});
