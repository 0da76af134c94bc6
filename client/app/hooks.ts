import { liveQuery } from 'dexie';
import { useEffect, useState } from 'preact/hooks';

/** Re-render when the query's result changes in IndexedDB (this tab, other tabs, or the sync engine). */
export function useLiveQuery<T>(q: () => Promise<T>, deps: unknown[]): T | undefined {
  const [v, setV] = useState<T | undefined>(undefined);
  useEffect(() => {
    const sub = liveQuery(q).subscribe({ next: setV, error: (e: unknown) => console.error(e) });
    return () => sub.unsubscribe();
  }, deps);
  return v;
}

/** True while the media query matches (phone vs desktop layout). */
export function useMedia(query: string): boolean {
  const [m, setM] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const mq = matchMedia(query);
    const on = () => setM(mq.matches);
    mq.addEventListener('change', on);
    on();
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return m;
}

/** The browser's online flag, kept current. */
export function useEnLinea(): boolean {
  const [on, setOn] = useState(navigator.onLine);
  useEffect(() => {
    const a = () => setOn(true);
    const b = () => setOn(false);
    addEventListener('online', a);
    addEventListener('offline', b);
    return () => {
      removeEventListener('online', a);
      removeEventListener('offline', b);
    };
  }, []);
  return on;
}

/** Where the denser desktop layout (side navigation, table) starts. */
export const ESCRITORIO = '(min-width: 900px)';

/** An object URL for a Blob (a photo kept on the device) while it is shown, revoked when the Blob changes or the screen goes. */
export function useUrlDeBlob(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}
