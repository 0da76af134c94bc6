import { useEffect, useState } from 'preact/hooks';
import { esRutaDelServidor } from '../../shared/rutas-servidor';
import { store, useStore } from './store';

/** The current path (without query) and query; changes through `navegar` or the browser's back/forward. */
const ubicacion = store({ path: location.pathname, query: location.search });

function actualizar(): void {
  ubicacion.set({ path: location.pathname, query: location.search });
}
addEventListener('popstate', actualizar);

/** Go to a client route (deep links: every screen has its own URL that survives a reload, also offline). */
export function navegar(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  actualizar();
  scrollTo(0, 0);
}

/** Plain `<a href>` clicks inside the app become client navigation (no full reload). */
export function interceptarEnlaces(root: HTMLElement): void {
  root.addEventListener('click', (ev) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const a = (ev.target as Element).closest('a');
    if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
    if (!a.pathname.startsWith('/') || esRutaDelServidor(a.pathname) || /\.[a-z0-9]+$/i.test(a.pathname)) return;
    ev.preventDefault();
    navegar(a.pathname + a.search);
  });
}

/** The current client route, re-rendering on navigation. */
export function useUbicacion() {
  return useStore(ubicacion);
}

export interface Ruta {
  patron: RegExp;
  cargar: () => Promise<{ default: (p: { params: string[]; query: URLSearchParams }) => preact.JSX.Element | null }>;
}

/** Match `path` against routes: the route and its captured params. */
export function resolver(rutas: Ruta[], path: string): { ruta: Ruta; params: string[] } | null {
  for (const ruta of rutas) {
    const m = ruta.patron.exec(path);
    if (m) return { ruta, params: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return null;
}

/** Load a route's screen on demand (one chunk per screen keeps the first screen small). */
export function useModulo<T>(cargar: (() => Promise<T>) | null): T | null | Error {
  // The module is kept with the loader it came from: after a navigation, the previous screen is
  // never rendered with the new route's params while the new one loads.
  const [mod, setMod] = useState<{ de: (() => Promise<T>) | null; m: T | Error } | null>(null);
  useEffect(() => {
    let vivo = true;
    if (cargar)
      cargar().then(
        (m) => vivo && setMod({ de: cargar, m }),
        (e: Error) => vivo && setMod({ de: cargar, m: e }),
      );
    return () => {
      vivo = false;
    };
  }, [cargar]);
  return mod && mod.de === cargar ? mod.m : null;
}
