import { afterEach, describe, expect, it } from 'vitest';
import { clearTokens, getRefreshToken, hasSession, saveTokens } from './tokens.ts';

afterEach(() => clearTokens());

describe('tokens', () => {
  it('never writes the refresh token where page scripts can read it (the server keeps it HttpOnly at /api)', () => {
    saveTokens({ jwt: 'access.jwt.value', refresh_token: 'refresh-secret' });
    expect(document.cookie).toContain('qtfo__token=access.jwt.value');
    expect(document.cookie).not.toContain('refresh-secret');
    expect(document.cookie).not.toContain('refresh__key');
    // This tab still has it for the spec's refreshToken body.
    expect(getRefreshToken()).toBe('refresh-secret');
    expect(hasSession()).toBe(true);
  });

  it('removes a script-readable refresh__key an earlier version wrote, once new tokens arrive', () => {
    document.cookie = 'refresh__key=old-refresh; path=/';
    expect(getRefreshToken()).toBe('old-refresh');
    saveTokens({ jwt: 'a.b.c', refresh_token: 'new-refresh' });
    expect(document.cookie).not.toContain('old-refresh');
    expect(getRefreshToken()).toBe('new-refresh');
  });

  it('forgets both on sign-out', () => {
    saveTokens({ jwt: 'a.b.c', refresh_token: 'r' });
    clearTokens();
    expect(getRefreshToken()).toBeNull();
    expect(hasSession()).toBe(false);
  });
});
