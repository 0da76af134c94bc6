/**
 * The colour scheme chosen on this device: «Sistema» follows the system's,
 * «Claro» and «Oscuro» stay. Kept in localStorage, where public/tema.js reads
 * it before the first paint (so a dark screen never flashes white) and sets
 * `data-tema` on <html>; the stylesheet does the rest. That script follows
 * the system's changes, another tab's choice (`storage`) and this tab's (the
 * `deca-tema` event `elegirTema` sends).
 */
export type Tema = 'sistema' | 'claro' | 'oscuro';

const CLAVE = 'deca-tema';

export function temaElegido(): Tema {
  const t = localStorage.getItem(CLAVE);
  return t === 'claro' || t === 'oscuro' ? t : 'sistema';
}

export function elegirTema(t: Tema): void {
  if (t === 'sistema') localStorage.removeItem(CLAVE);
  else localStorage.setItem(CLAVE, t);
  dispatchEvent(new Event(CLAVE));
}
