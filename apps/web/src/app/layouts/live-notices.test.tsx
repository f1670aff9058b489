import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '@tipcard/shared/live/schemas';
import { i18n, loadLocale } from '../../lib/i18n.ts';
import { liveNoticeText } from './live-notices.tsx';

const removed: LiveEvent = {
  seq: 7,
  created_at: '2026-11-01T09:30:00Z',
  type: 'notice',
  notice_id: '5a1e3f6b-8c9d-4e0f-9a2b-3c4d5e6f7081',
  notice: { kind: 'team_member_removed', team: 'Cocina', workplace: 'Café Rīga', rule: null, month: null, amount_cents: null },
};

describe('a live team notice', () => {
  it('is told at once in the reader’s language, naming the team as it was', async () => {
    await loadLocale('es');
    await i18n.changeLanguage('es');
    expect(liveNoticeText(removed, (key, vars) => i18n.t(key, vars))).toBe(
      'El administrador te ha quitado de un equipo. Equipo: Cocina (Café Rīga). Las propinas ya repartidas contigo siguen siendo tuyas.',
    );
    await i18n.changeLanguage('en');
    expect(liveNoticeText(removed, (key, vars) => i18n.t(key, vars))).toContain('The admin removed you from a team.');
  });
});
