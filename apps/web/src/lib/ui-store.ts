import { createStore } from './create-store.ts';

export type SnackbarColor = 'error' | 'success' | 'info';

/** How long a message stays (the snackbar, and the landing page's script's cookie confirmation). */
export const SNACKBAR_DURATION_MS = { error: 8000, success: 5000, info: 5000 } as const;

export interface SnackbarState {
  id: number;
  message: string;
  color: SnackbarColor;
  /** When it was shown (ms since the epoch): a later move to another page takes it away. */
  shownAt: number;
}

export type ModalName = 'card' | 'verification' | 'cookie';

export interface UiState {
  snackbar: SnackbarState | null;
  /** The global loading flag (loading modal). */
  loading: boolean;
  modals: Record<ModalName, boolean>;
  /** A status that replaces the page with the error page (404 or anything unexpected). */
  fatalError: number | null;
}

const closedModals: Record<ModalName, boolean> = { card: false, verification: false, cookie: false };

export const uiStore = createStore<UiState>({ snackbar: null, loading: false, modals: closedModals, fatalError: null });

let snackbarId = 0;

export function showSnackbar(message: string, color: SnackbarColor = 'error'): void {
  snackbarId += 1;
  uiStore.set({ snackbar: { id: snackbarId, message, color, shownAt: Date.now() } });
}

export function hideSnackbar(id?: number): void {
  uiStore.set((state) => (id === undefined || state.snackbar?.id === id ? { snackbar: null } : {}));
}

export function setLoading(loading: boolean): void {
  uiStore.set({ loading });
}

export function openModal(name: ModalName): void {
  uiStore.set((state) => ({ modals: { ...state.modals, [name]: true } }));
}

export function closeModal(name: ModalName): void {
  uiStore.set((state) => ({ modals: { ...state.modals, [name]: false } }));
}

export function closeAllModals(): void {
  if (Object.values(uiStore.get().modals).some(Boolean)) uiStore.set({ modals: closedModals });
}

export function showFatalError(status: number): void {
  uiStore.set({ fatalError: status });
}

export function clearFatalError(): void {
  if (uiStore.get().fatalError !== null) uiStore.set({ fatalError: null });
}
