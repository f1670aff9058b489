import { afterEach, describe, expect, it } from 'vitest';
import { noticeAfterReload, showNoticeAfterReload } from './notice-after-reload.ts';
import { uiStore } from './ui-store.ts';

afterEach(() => uiStore.set({ snackbar: null }));

describe('a notice carried over a reload', () => {
  it('is shown once by the next start, in the colour it was given', () => {
    noticeAfterReload('Your account has been deleted.', 'success');
    expect(uiStore.get().snackbar).toBeNull();
    showNoticeAfterReload();
    expect(uiStore.get().snackbar).toMatchObject({ message: 'Your account has been deleted.', color: 'success' });
    uiStore.set({ snackbar: null });
    showNoticeAfterReload();
    expect(uiStore.get().snackbar).toBeNull();
  });
});
