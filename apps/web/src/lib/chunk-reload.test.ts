import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, reloadForFailedChunk } from './chunk-reload.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    map,
  };
}

describe('chunk reload guard', () => {
  it('reloads at most once per 60 s', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadForFailedChunk(storage, reload, 1_000_000)).toBe(true);
    expect(storage.map.get(CHUNK_RELOAD_KEY)).toBe('1000000');
    expect(reloadForFailedChunk(storage, reload, 1_030_000)).toBe(false);
    expect(reloadForFailedChunk(storage, reload, 1_060_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
