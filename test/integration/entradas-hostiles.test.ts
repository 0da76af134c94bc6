import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { OPERACIONES_API as OPERACIONES, type OperacionApi } from '../../server/commands/operaciones';
import { ErrorBody } from '../../shared/errors';
import { DecaCreada } from '../../shared/schemas/deca';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { type CuentaDePrueba, it, test } from '../support/fixtures';
import { hostil, valor } from '../support/hostiles';

// Hundreds of calls with one key: room in the per-key limit, and a plan with no monthly limit.
test.override('opcionesCuenta', { plan: 'pro' });
test.override('opcionesApp', { apiPoints: 100_000 });

/** A body with the operation's own field names (so the hostile values reach its schema), or anything at all. */
function cuerpos(op: OperacionApi): fc.Arbitrary<unknown> {
  const claves = op.cuerpo && 'json' in op.cuerpo && op.cuerpo.json && 'shape' in op.cuerpo.json ? Object.keys((op.cuerpo.json as unknown as { shape: object }).shape) : [];
  const conSusCampos = claves.length ? fc.dictionary(fc.constantFrom(...claves, 'envios', 'emitir'), valor, { maxKeys: 8 }) : valor;
  return fc.oneof(conSusCampos, valor, fc.constant(decaCompleta({ matricula: '<b>1234</b>' })));
}

const consulta = (op: OperacionApi) =>
  fc.dictionary(fc.constantFrom(...(op.consulta ? Object.keys(op.consulta.shape) : []), 'limite', 'despues_de', 'x'), hostil, { maxKeys: 4 }).map((q) => new URLSearchParams(q).toString());

/** A path with its ids replaced by hostile text (or a real DeCA's id). */
const ruta = (op: OperacionApi, id: number) =>
  fc
    .tuple(fc.oneof(hostil, fc.constant(String(id))), hostil)
    .map(([a, b]) => `/api/v1${op.ruta.replace('{id}', encodeURIComponent(a).slice(0, 300) || 'x').replace('{entrega}', encodeURIComponent(b).slice(0, 300) || 'x')}`);

/** Never a 500, and every refusal is the documented error body. */
async function comprobar(res: { status: number; headers: Headers; text: string }, donde: string): Promise<void> {
  expect(res.status, `${donde}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400 && (res.headers.get('content-type') ?? '').includes('json')) ErrorBody.parse(JSON.parse(res.text));
}

async function pedir(app: TestApp, c: CuentaDePrueba, metodo: string, camino: string, body?: BodyInit, tipo?: string) {
  const res = await fetch(app.url + camino, { method: metodo, headers: { authorization: `Bearer ${c.live}`, ...(tipo ? { 'content-type': tipo } : {}) }, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('hostile and random input never breaks the service', () => {
  it('every operation of the API, with random bodies, query strings and ids: a documented 4xx or a success, never a 500', async ({ app, c }) => {
    const d = DecaCreada.parse((await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ emitir: false }) })).body).deca;
    for (const op of OPERACIONES) {
      await fc.assert(
        fc.asyncProperty(ruta(op, d.id), consulta(op), cuerpos(op), async (camino, q, cuerpo) => {
          const conQ = q ? `${camino}?${q}` : camino;
          const body = op.metodo === 'get' ? undefined : JSON.stringify(cuerpo);
          await comprobar(await pedir(app, c, op.metodo.toUpperCase(), conQ, body, body ? 'application/json' : undefined), `${op.metodo} ${conQ}`);
        }),
        { numRuns: 12 },
      );
    }
  });

  it('the CSV importer and the photo reader, with random bytes and broken files', async ({ app, c }) => {
    const csv = fc.oneof(
      fc.uint8Array({ maxLength: 4000 }),
      fc
        .array(fc.array(hostil, { maxLength: 25 }), { maxLength: 8 })
        .map((filas) => new TextEncoder().encode(['ref_externa;referencia;fecha_transporte', ...filas.map((f) => f.join(';'))].join('\r\n'))),
    );
    await fc.assert(
      fc.asyncProperty(csv, fc.boolean(), async (bytes, validar) => {
        const form = new FormData();
        form.append('csv', new Blob([bytes as BlobPart]), 'x.csv');
        await comprobar(await pedir(app, c, 'POST', `/api/v1/importar${validar ? '?validar=1' : ''}`, form), 'importar');
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.constantFrom<number[]>([], [0xff, 0xd8, 0xff, 0xe0], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0x52, 0x49, 0x46, 0x46]),
        async (resto, cabecera) => {
          const form = new FormData();
          form.append('foto', new Blob([new Uint8Array([...cabecera, ...resto]) as BlobPart]), 'x.jpg');
          await comprobar(await pedir(app, c, 'POST', '/api/v1/fotos', form), 'fotos');
          await comprobar(await pedir(app, c, 'POST', '/api/v1/fotos', JSON.stringify({ imagen_base64: Buffer.from(resto).toString('base64') }), 'application/json'), 'fotos base64');
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the public completion form, with random fields and values', async ({ app, c }) => {
    const d = DecaCreada.parse((await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, matricula: '1234BCD' } })).body).deca;
    const camino = new URL(d.urls.completar!).pathname;
    const campos = fc.array(fc.tuple(fc.oneof(fc.constantFrom('accion', 'cargador_nombre', 'cargador_nif', 'envios[0].peso', 'envios[99999].origen', 'ajax', 'envios[-1].x'), hostil), hostil), {
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(campos, async (pares) => {
        const res = await fetch(app.url + camino, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0' },
          body: new URLSearchParams(pares).toString(),
        });
        const text = await res.text();
        expect(res.status, text.slice(0, 300)).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});
