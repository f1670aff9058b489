import { useSyncExternalStore } from 'react';
import type { Store } from './create-store.ts';

/** Subscribes to a slice of a store; the selector must return a primitive or a stable reference. */
export function useStore<T extends object, S>(store: Store<T>, selector: (state: T) => S): S {
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.get()),
    () => selector(store.get()),
  );
}
