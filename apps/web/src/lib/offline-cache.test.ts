import { afterEach, describe, expect, it, vi } from 'vitest';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { persistOfflineCache, restoreOfflineCache } from './offline-cache.ts';
import { clearTokens, saveTokens } from './tokens.ts';

const ANNA = '0b6c8f9e-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
const BORIS = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';
/** An access token naming `sub` (unsigned: the cache only reads whose key to use). */
const tokenOf = (sub: string) => `e30.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.sig`;
const signIn = (sub: string) => saveTokens({ jwt: tokenOf(sub), refresh_token: 'r' });

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
}

/** A client whose balances and whose card QR arrived, kept by `persistOfflineCache`. */
async function seenBalances(cents: number) {
  const client = new QueryClient();
  const stop = persistOfflineCache(client);
  await client.fetchQuery({ queryKey: ['balances', 'c1'], queryFn: async () => ({ main: cents }) });
  await client.fetchQuery({ queryKey: ['card-qr', 'card'], queryFn: async () => 'blob:qr' });
  await vi.waitFor(() => expect(Object.keys(localStorage).some((key) => key.startsWith('tipcard:offline:'))).toBe(true));
  stop();
}

afterEach(() => {
  vi.restoreAllMocks();
  clearTokens();
  localStorage.clear();
  onlineManager.setOnline(true);
});

describe('the figures kept for offline use', () => {
  it('are given back offline to the same user only, with only the kept queries', async () => {
    signIn(ANNA);
    await seenBalances(475);

    setOnline(false);
    const anna = new QueryClient();
    restoreOfflineCache(anna);
    expect(anna.getQueryData(['balances', 'c1'])).toEqual({ main: 475 });
    expect(anna.getQueryState(['balances', 'c1'])!.dataUpdatedAt).toBeGreaterThan(0);
    expect(anna.getQueryData(['card-qr', 'card'])).toBeUndefined();
    // The app's queries wait for the network instead of failing.
    expect(onlineManager.isOnline()).toBe(false);

    // Another user signed in on this device (without Anna's sign-out) sees nothing of hers.
    saveTokens({ jwt: tokenOf(BORIS), refresh_token: 'r' });
    const boris = new QueryClient();
    restoreOfflineCache(boris);
    expect(boris.getQueryData(['balances', 'c1'])).toBeUndefined();
  });

  it('are not used online, where the network answers', async () => {
    signIn(ANNA);
    await seenBalances(475);
    setOnline(true);
    const client = new QueryClient();
    restoreOfflineCache(client);
    expect(client.getQueryData(['balances', 'c1'])).toBeUndefined();
  });

  it('leave the device on sign-out', async () => {
    signIn(ANNA);
    await seenBalances(475);
    clearTokens();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('tipcard:offline:'))).toEqual([]);
    signIn(ANNA);
    setOnline(false);
    const client = new QueryClient();
    restoreOfflineCache(client);
    expect(client.getQueryData(['balances', 'c1'])).toBeUndefined();
  });
});
