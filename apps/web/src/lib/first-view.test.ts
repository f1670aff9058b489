import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { afterFirstView, firstViewShown, useFirstViewShown } from './first-view.ts';

describe('the first view', () => {
  it('holds back what waits for it until it is on screen, then runs it once, and anything later at once', async () => {
    const waiting = vi.fn();
    afterFirstView(waiting);
    const { result } = renderHook(() => useFirstViewShown());
    await Promise.resolve();
    expect(waiting).not.toHaveBeenCalled();
    expect(result.current).toBe(false);

    await act(async () => {
      firstViewShown();
      firstViewShown();
      await Promise.resolve();
    });
    expect(waiting).toHaveBeenCalledTimes(1);
    expect(result.current).toBe(true);

    const later = vi.fn();
    afterFirstView(later);
    await Promise.resolve();
    expect(later).toHaveBeenCalledTimes(1);
    expect(renderHook(() => useFirstViewShown()).result.current).toBe(true);
  });
});
