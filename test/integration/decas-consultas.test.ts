/**
 * The SQL round trips of the DeCA state changes, counted at the driver on
 * the real database (PostgreSQL and PGlite): every statement one request
 * sends, BEGIN and COMMIT included. The transaction's last statement carries
 * every write that needs nothing back (history, address book, quota, the
 * key's record, the events and their deliveries) and reports the
 * transaction's id, so PostgreSQL's honest COMMIT (db/commit-outcome.ts)
 * reads nothing more. Each bound is what the change costs; none may grow.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { TestResponse } from '../support/app';
import { type ContadorDeConsultas, contadorDeConsultas } from '../support/consultas';
import { decaCompleta } from '../support/decas';
import { postDeca } from '../support/decas-http';
import { it, type TestApp } from '../support/fixtures';

/**
 * Round trips allowed per request, the same on both engines. Before the
 * command layer owned the transaction: create+issue with a key 15, without
 * 11; PATCH 10, emitir 10, fin 9 (PostgreSQL, the key's cache warm).
 */
const LIMITES = {
  // claim (with the DeCA a key or ref_externa may already have) · number and address book ·
  // BEGIN · DeCA + version + history · address book, quota, key's record, events · COMMIT
  crearConClave: 6,
  // the same without the claim
  crear: 5,
  // read · address book · BEGIN · conditional update · version, history, address book, events · COMMIT
  modificar: 6,
  // read · BEGIN · conditional update · version, history, events · COMMIT
  emitir: 5,
  // read · BEGIN · conditional update · history, events · COMMIT
  fin: 5,
};

/** One counter per app: its driver is wrapped once. */
const contadores = new WeakMap<TestApp, ContadorDeConsultas>();
function contadorDe(app: TestApp): ContadorDeConsultas {
  let c = contadores.get(app);
  if (!c) contadores.set(app, (c = contadorDeConsultas(app.database)));
  return c;
}

/** Run one request, check it succeeded, and hold its statements to `limite`. */
async function alMaximo(app: TestApp, limite: number, peticion: () => Promise<TestResponse>): Promise<TestResponse> {
  const { valor, consultas } = await contadorDe(app).medir(peticion);
  expect(valor.status, valor.text).toBeLessThan(300);
  expect(consultas.length, `${consultas.length} sentencias:\n${consultas.join('\n')}`).toBeLessThanOrEqual(limite);
  // Something was counted: a counter that saw nothing would pass any bound.
  expect(consultas.some((q) => /^commit$/i.test(q))).toBe(true);
  return valor;
}

/** Two creates first: the key's cache filled (after its first use is noted), statements prepared, PDF workers up. */
async function calentar(app: TestApp, key: string): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await postDeca(app, key, decaCompleta(), { headers: { 'Idempotency-Key': randomUUID() } })).status).toBe(201);
}

describe('SQL round trips of the DeCA changes', () => {
  it('creates and issues a DeCA with an Idempotency-Key (the app’s request) within its bound, and without one within less', { timeout: 120_000 }, async ({ app, c }) => {
    await calentar(app, c.live);
    const conClave = await alMaximo(app, LIMITES.crearConClave, () => postDeca(app, c.live, decaCompleta(), { headers: { 'Idempotency-Key': randomUUID() } }));
    expect(conClave.status).toBe(201);
    expect(conClave.body.deca.estado).toBe('emitido');
    const sinClave = await alMaximo(app, LIMITES.crear, () => postDeca(app, c.live, decaCompleta()));
    expect(sinClave.status).toBe(201);
  });

  it('modifies, issues and ends a DeCA within their bounds', { timeout: 120_000 }, async ({ app, c }) => {
    await calentar(app, c.live);
    const id = (await postDeca(app, c.live, decaCompleta({ emitir: false }))).body.deca.id as number;
    const patch = await alMaximo(app, LIMITES.modificar, () => app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: { referencia: 'Cambiada' } }));
    expect(patch.body.deca.referencia).toBe('Cambiada');
    const emitida = await alMaximo(app, LIMITES.emitir, () => app.request('POST', `/api/v1/decas/${id}/emitir`, { key: c.live }));
    expect(emitida.body.deca.estado).toBe('emitido');
    const fin = await alMaximo(app, LIMITES.fin, () => app.request('POST', `/api/v1/decas/${id}/fin`, { key: c.live }));
    expect(fin.body.deca.fin_servicio_at).not.toBeNull();
  });
});
