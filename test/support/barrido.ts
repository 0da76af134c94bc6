import { createHash, randomBytes } from 'node:crypto';
import { expect, onTestFinished } from 'vitest';
import { borrarPdfsHuerfanos, type LoteDeBarrido } from '../../server/domain/decas/pdfs-huerfanos';
import type { Deca } from '../../shared/schemas/deca';
import type { TestApp } from './app';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every blob of the store, listed page by page (`lote` at a time), as a sweep walks it. */
async function todos(app: TestApp, lote: number): Promise<string[]> {
  const out: string[] = [];
  let despues: string | null = null;
  for (;;) {
    const pagina = await app.services.blobs.listar({ despues, limite: lote });
    out.push(...pagina.map((b) => b.sha256));
    if (pagina.length < lote) return out;
    despues = pagina.at(-1)!.sha256;
  }
}

async function barrer(app: TestApp, lote: number): Promise<Omit<LoteDeBarrido, 'siguiente'> & { lotes: number }> {
  const total = { revisados: 0, borrados: 0, bytes: 0, lotes: 0 };
  let despues: string | null = null;
  do {
    const r = await borrarPdfsHuerfanos(app.services, { lote, despues });
    total.revisados += r.revisados;
    total.borrados += r.borrados;
    total.bytes += r.bytes;
    total.lotes++;
    despues = r.siguiente;
  } while (despues);
  return total;
}

/**
 * The sweep of a store (`blobs:gc`), the same on every backend: the store
 * lists its PDFs in key order, page by page, with their write times; the
 * sweep deletes the ones no version names once they are older than its
 * margin, and keeps every issued version's PDF.
 */
export async function comprobarBarrido(app: TestApp, emitir: () => Promise<Deca>): Promise<void> {
  app.clock.set(new Date());
  onTestFinished(() => app.clock.set(new Date()));
  const decas = [await emitir(), await emitir()];
  // What a change that failed after writing its PDF leaves: blobs no row names.
  const huerfanos: Buffer[] = Array.from({ length: 5 }, () => randomBytes(2_000 + Math.floor(Math.random() * 1000)));
  for (const b of huerfanos) await app.services.blobs.guardar(sha256(b), b);

  const listados = await todos(app, 2);
  expect(listados).toEqual([...listados].sort());
  expect(new Set(listados).size).toBe(listados.length);
  for (const d of decas) expect(listados).toContain(d.pdf_sha256);
  for (const b of huerfanos) expect(listados).toContain(sha256(b));
  const primera = await app.services.blobs.listar({ despues: null, limite: 3 });
  expect(primera.every((b) => b.bytes > 0 && Math.abs(b.escrito.getTime() - Date.now()) < 3_600_000)).toBe(true);

  // Younger than the margin: a blob whose row may be about to commit is never deleted.
  expect((await barrer(app, 3)).borrados).toBe(0);
  for (const b of huerfanos) expect(await app.services.blobs.existe(sha256(b))).toBe(true);

  app.clock.advance(25 * 3_600_000);
  const r = await barrer(app, 3);
  expect(r.revisados).toBeGreaterThanOrEqual(listados.length);
  expect(r.lotes).toBeGreaterThan(1);
  for (const b of huerfanos) expect(await app.services.blobs.existe(sha256(b))).toBe(false);
  expect(r.bytes).toBeGreaterThanOrEqual(huerfanos.reduce((n, b) => n + b.length, 0));
  // Every version's PDF stays, and is served.
  for (const d of decas) expect(Buffer.from(await app.services.blobs.leer(d.pdf_sha256!)).length).toBe(d.pdf_bytes);
  const restantes = await todos(app, 1000);
  for (const d of decas) expect(restantes).toContain(d.pdf_sha256);

  // Run again: nothing left to delete; a blob already gone is no error.
  expect((await barrer(app, 1000)).borrados).toBe(0);
  await app.services.blobs.borrar(sha256(huerfanos[0]!));
}
