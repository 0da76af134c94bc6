import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { type Deca, DecaCreada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

/**
 * The public links (the ficha behind the QR, its PDF, image and driver's
 * page, and the other party's completion link) are the only thing standing
 * between a stranger and a company's documents: they must be impossible to
 * guess or walk, and a link that no longer leads anywhere must say nothing
 * that an unknown one does not.
 */

async function crear({ app, c }: Fx, over: Record<string, unknown> = {}): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta(over) });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

const tokenDe = (url: string) => new URL(url).pathname.split('/')[2]!;

/** Every public path built on a token. */
const RUTAS = [(t: string) => `/d/${t}`, (t: string) => `/d/${t}.pdf`, (t: string) => `/d/${t}/qr.png`, (t: string) => `/d/${t}/conductor`, (t: string) => `/d/${t}/conductor/manifest.webmanifest`];

/** What a client can tell apart between two answers: status, body and headers (but the date and the request's own id). */
async function huella(app: Fx['app'], path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.url}${path}`, { ...init, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0', ...init.headers } });
  const cuerpo = Buffer.from(await res.arrayBuffer()).toString('utf8');
  const cabeceras: [string, string][] = [];
  res.headers.forEach((v, k) => {
    if (k !== 'date' && k !== 'x-request-id') cabeceras.push([k, v]);
  });
  return { status: res.status, cuerpo, cabeceras };
}

describe('public tokens', () => {
  it('carry 192 random bits each, unrelated to the tokens made before them', async ({ app, c }) => {
    const decas: Deca[] = [];
    for (let i = 0; i < 40; i++) decas.push(await crear({ app, c }, { emitir: i % 2 === 0 }));
    const fichas = decas.map((d) => tokenDe(d.urls.ficha));
    const completar = decas.flatMap((d) => (d.urls.completar ? [tokenDe(d.urls.completar)] : []));
    expect(completar).toHaveLength(20);
    const todos = [...fichas, ...completar];
    // 32 characters of base64url: 24 bytes from the system's CSPRNG.
    for (const t of todos) expect(t).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(todos).size).toBe(todos.length);
    // Consecutive DeCAs' tokens share no more of a beginning than chance gives (1 in 64 per character).
    const comun = (a: string, b: string) => [...a].findIndex((ch, k) => ch !== b[k]);
    for (let i = 1; i < fichas.length; i++) expect(comun(fichas[i - 1]!, fichas[i]!)).toBeLessThan(4);
    // Uniform over the alphabet: 1,920 characters cover (nearly) all 64, none far above its share.
    const cuenta = new Map<string, number>();
    for (const ch of todos.join('')) cuenta.set(ch, (cuenta.get(ch) ?? 0) + 1);
    expect(cuenta.size).toBeGreaterThanOrEqual(60);
    expect(Math.max(...cuenta.values())).toBeLessThan((3 * (todos.length * 32)) / 64);
  });

  it('a near miss of a real token finds nothing: one character changed, one missing, one more, another case', async ({ app, c }) => {
    const d = await crear({ app, c });
    const t = tokenDe(d.urls.ficha);
    expect((await huella(app, `/d/${t}`)).status).toBe(200);
    const otro = (ch: string) => (ch === 'A' ? 'B' : 'A');
    const cercanos = [t.slice(0, -1) + otro(t.at(-1)!), t.slice(0, -1), `${t}A`, t.toUpperCase() === t ? t.toLowerCase() : t.toUpperCase(), `${t.slice(0, 16)}%`, `${t.slice(0, 8)}*`];
    for (const cerca of cercanos) expect((await huella(app, `/d/${encodeURIComponent(cerca)}`)).status, cerca).toBe(404);
  });

  it('a deleted draft’s links answer exactly like links that never existed, on every public page', async ({ app, c }) => {
    const borrador = await crear({ app, c }, { emitir: false });
    const ficha = tokenDe(borrador.urls.ficha);
    const enlace = tokenDe(borrador.urls.completar!);
    expect((await huella(app, `/d/${ficha}`)).status).toBe(200);
    expect((await huella(app, `/completar/${enlace}`)).status).toBe(200);
    expect((await app.request('DELETE', `/api/v1/decas/${borrador.id}`, { key: c.live })).status).toBe(200);

    const inventado = () => randomBytes(24).toString('base64url');
    for (const ruta of RUTAS) {
      const borrada = await huella(app, ruta(ficha));
      expect(borrada.status, ruta(ficha)).toBe(404);
      expect(borrada).toEqual(await huella(app, ruta(inventado())));
    }
    for (const init of [{}, { method: 'POST', body: 'accion=enviar', headers: { 'content-type': 'application/x-www-form-urlencoded' } }]) {
      const borrada = await huella(app, `/completar/${enlace}`, init);
      expect(borrada.status).toBe(404);
      expect(borrada).toEqual(await huella(app, `/completar/${inventado()}`, init));
    }
  });
});
