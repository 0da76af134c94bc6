import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';

/**
 * A message that sends the user somewhere («Cree otra en «Cuenta» →
 * «Claves de API»») names a screen the app has, and a section that screen
 * has: a revoked key's error once sent people to an «Integraciones» screen
 * that never existed. Screens are the views' <h1>, sections their <h2>.
 */
function fuentes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return fuentes(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Each screen's title (<h1>) with the titles of its sections (<h2>), from the views' source. */
function pantallasDeLaApp(): Map<string, Set<string>> {
  const pantallas = new Map<string, Set<string>>();
  for (const f of fuentes(path.join(ROOT, 'client/views'))) {
    const texto = readFileSync(f, 'utf8');
    const titulos = (etiqueta: string) => [...texto.matchAll(new RegExp(`<${etiqueta}[^>]*>([^<{]+)</${etiqueta}>`, 'g'))].map((m) => m[1]!.trim());
    for (const h1 of titulos('h1')) pantallas.set(h1, new Set([...(pantallas.get(h1) ?? []), ...titulos('h2')]));
  }
  return pantallas;
}

/** Where the product's texts (server, shared rules, the app) send the user: a screen, and maybe a section of it. */
function destinosNombrados(): { donde: string; pantalla: string; seccion?: string }[] {
  const destinos: { donde: string; pantalla: string; seccion?: string }[] = [];
  for (const f of ['server', 'shared', 'client'].flatMap((d) => fuentes(path.join(ROOT, d)))) {
    const rel = path.relative(ROOT, f);
    // The delivery-note reader's labels are words printed on paper, not the app's.
    if (rel === 'shared/rules/albaran.ts') continue;
    const texto = readFileSync(f, 'utf8');
    for (const m of texto.matchAll(/«([^»]+)» → «([^»]+)»/g)) destinos.push({ donde: rel, pantalla: m[1]!, seccion: m[2]! });
    for (const m of texto.matchAll(/\ben «([A-ZÁÉÍÓÚ][a-záéíóúñ]+(?: [a-záéíóúñ]+)*)»(?! →)/g)) destinos.push({ donde: rel, pantalla: m[1]! });
    // Unquoted, as older messages wrote it: «añádalo en Cuenta», «Cree otra en Integraciones».
    for (const m of texto.matchAll(/\ben (Cuenta|Usuarios|Agenda|Fotos|Webhooks|Integraciones|Ajustes|Configuración|Preferencias|Perfil)\b/g)) destinos.push({ donde: rel, pantalla: m[1]! });
  }
  return destinos;
}

describe('screens named in messages', () => {
  it('exist in the app, with the sections named', () => {
    const pantallas = pantallasDeLaApp();
    expect([...pantallas.keys()]).toEqual(expect.arrayContaining(['Cuenta', 'Usuarios', 'Webhooks']));
    const destinos = destinosNombrados();
    // The revoked key's message is one of them.
    expect(destinos).toContainEqual({ donde: 'server/http/middleware/auth.ts', pantalla: 'Cuenta', seccion: 'Claves de API' });
    const rotos = destinos.filter((d) => !pantallas.has(d.pantalla) || (d.seccion !== undefined && !pantallas.get(d.pantalla)!.has(d.seccion)));
    expect(rotos).toEqual([]);
  });
});
