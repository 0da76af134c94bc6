import { useEffect, useState } from 'preact/hooks';

/** A value that screens can watch: the app's few pieces of global state (session, environment, sync). */
export interface Store<T> {
  get(): T;
  set(v: T): void;
  subscribe(fn: (v: T) => void): () => void;
}

/** A new store holding `initial`. */
export function store<T>(initial: T): Store<T> {
  let value = initial;
  const subs = new Set<(v: T) => void>();
  return {
    get: () => value,
    set(v) {
      value = v;
      for (const fn of subs) fn(v);
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
}

/**
 * The store's value, re-rendering the component when it changes. The value is
 * boxed: Preact's useState would call a function value as an updater (the
 * "update available" store holds a function).
 */
export function useStore<T>(s: Store<T>): T {
  const [box, setBox] = useState(() => ({ v: s.get() }));
  useEffect(() => {
    setBox({ v: s.get() });
    return s.subscribe((v) => setBox({ v }));
  }, [s]);
  return box.v;
}
