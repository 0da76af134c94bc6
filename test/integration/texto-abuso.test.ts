/**
 * Text that cannot be printed on a DeCA or shown to an inspector, tried from
 * outside on every front door: NUL (PostgreSQL cannot store it), other
 * control characters, bidirectional overrides (a name read reversed), lone
 * surrogates and bytes that are not UTF-8. Each is refused with 422
 * `validacion` naming the field (400 for a body that is not UTF-8), never a
 * 500, and nothing is stored.
 */
import fc from 'fast-check';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { COLUMNAS_CSV } from '../../shared/rules/csv-deca';
import { type Deca, DecaCreada } from '../../shared/schemas/deca';
import { Importacion } from '../../shared/schemas/importar';
import type { TestApp, TestResponse } from '../support/app';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';
import { prohibido, texto } from '../support/hostiles';

const CSRF = { 'X-DeCA-CSRF': '1' };
const WEBHOOK = 'https://93.184.216.34/deca';

let ip = 0;
test.override('opcionesApp', { apiPoints: 100_000, env: { TRUST_PROXY: '1' } });
test.override('opcionesCuenta', { rol: 'transportista', nombre: 'Transportes Núñez, S.L.', nif: 'B12345674', domicilio: 'Avda. Ilustración 7, Zaragoza' });

/** A new client address per request, so the per-IP limits of sign-up and sign-in stay out of the way. */
const otraIp = () => ({ 'X-Forwarded-For': `198.51.${Math.floor(++ip / 250) % 250}.${(ip % 250) + 1}` });

function campos(res: TestResponse): Record<string, string> {
  expect(res.status, res.text).toBe(422);
  const err = (res.body as { error: { codigo: string; campos: Record<string, string> } }).error;
  expect(err.codigo).toBe('validacion');
  return err.campos;
}

async function contarDecas({ app, c }: Fx): Promise<number> {
  const r = await app.database.db
    .selectFrom('decas')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', c.account.id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function pendiente({ app, c }: Fx): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, matricula: '1234BCD' } });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

async function postForm(app: TestApp, url: string, cuerpo: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0' },
    body: cuerpo,
  });
  return { status: res.status, text: await res.text() };
}

describe('the reproductions', () => {
  it('refuses a NUL in observaciones with 422 naming the field (it was a 500)', async ({ app, c }) => {
    const antes = await contarDecas({ app, c });
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, observaciones: 'a\u0000b', matricula: '1234BCD' } });
    expect(campos(res).observaciones).toMatch(/carácter de control.*U\+0000/);
    expect(await contarDecas({ app, c })).toBe(antes);
  });

  it('refuses a right-to-left override and a bell in a name (they were stored and printed)', async ({ app, c }) => {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, cargador_nombre: 'A\u202eSL evil\u0007' } });
    expect(campos(res).cargador_nombre).toMatch(/orden en que se lee.*U\+202E/);
  });

  it('refuses a lone surrogate, and line breaks outside the fields of several lines', async ({ app, c }) => {
    expect(campos(await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, cargador_nombre: 'x\ud800y' } })).cargador_nombre).toMatch(/U\+D800 suelto/);
    expect(campos(await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, cargador_nombre: 'Línea 1\nLínea 2' } })).cargador_nombre).toMatch(/una sola línea/);
    const bien = await app.request('POST', '/api/v1/decas', {
      key: c.live,
      body: { emitir: false, observaciones: 'Descarga con cita.\nMuelle 3,\tpuerta B.', envios: [{ origen: 'Huesca', nota: 'Frágil\r\nNo apilar' }] },
    });
    expect(bien.status, bien.text).toBe(201);
    expect(DecaCreada.parse(bien.body).deca.observaciones).toBe('Descarga con cita.\nMuelle 3,\tpuerta B.');
  });

  it('names the shipment field, and the reason of a change', async ({ app, c }) => {
    const envio = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, envios: [{ origen: 'Huesca' }, { destino: 'Zara\u2066goza' }] } });
    expect(Object.keys(campos(envio))).toEqual(['envios[1].destino']);
    const d = await pendiente({ app, c });
    const patch = await app.request('PATCH', `/api/v1/decas/${d.id}`, { key: c.live, body: { conductor_nombre: 'Luis\u0085Pérez' } });
    expect(campos(patch).conductor_nombre).toMatch(/U\+0085/);
  });

  it('answers a body that is not UTF-8 with 400 json_invalido, and a NUL in the list filter or an id with 422', async ({ app, c }) => {
    const raw = await fetch(`${app.url}/api/v1/decas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.live}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"emitir":false,"observaciones":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { codigo: string; mensaje: string } }).error).toMatchObject({ codigo: 'json_invalido', mensaje: expect.stringMatching(/UTF-8/) });

    expect(campos(await app.request('GET', '/api/v1/decas?matricula=%00', { key: c.live })).matricula).toMatch(/U\+0000/);
    expect(campos(await app.request('GET', '/api/v1/decas?despues_de=%E2%80%AE', { key: c.live })).despues_de).toMatch(/U\+202E/);
    expect(campos(await app.request('GET', '/api/v1/decas/%00', { key: c.live })).id).toMatch(/U\+0000/);
  });

  it('refuses them in a webhook and in the sign-up', async ({ app, c }) => {
    expect(campos(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: WEBHOOK, descripcion: 'ERP\u0000' } })).descripcion).toMatch(/U\+0000/);
    expect(campos(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: `${WEBHOOK}\u202e` } })).url).toMatch(/U\+202E/);
    const registro = await app.request('POST', '/app/api/registro', {
      headers: { ...CSRF, ...otraIp() },
      body: { nombre: 'Transportes\u202e Peñalara', nif: 'B12345674', domicilio: 'Calle Real 2, Segovia', email: 'p@example.com', password: 'una-clave-bien-larga' },
    });
    expect(campos(registro).nombre).toMatch(/U\+202E/);
  });

  it('refuses a zero-width space in ref_externa, a name and a NIF, naming the field and the code point, and stores nothing', async ({ app, c }) => {
    const antes = await contarDecas({ app, c });
    const invisible = (cp: string) => `Contiene un carácter invisible (${cp}): quítelo.`;
    for (const [campo, valor, cp] of [
      ['ref_externa', 'PED\u200b-7', 'U+200B'],
      ['cargador_nombre', 'Frutas\u200b Peñalara, S.A.', 'U+200B'],
      ['cargador_nif', 'A5881\u200b8501', 'U+200B'],
      ['transp_nif', '\ufeffB12345674', 'U+FEFF'],
      ['conductor_nombre', 'José\u00adÁngel', 'U+00AD'],
      ['observaciones', 'Descarga con cita.\u2028Muelle 3', 'U+2028'],
    ] as const) {
      const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta({ emitir: false }), [campo]: valor } });
      expect(campos(res), campo).toEqual({ [campo]: invisible(cp) });
    }
    expect(await contarDecas({ app, c })).toBe(antes);

    // A change, the list's filter, the address book and a CSV row: the same rule.
    const d = await pendiente({ app, c });
    expect(campos(await app.request('PATCH', `/api/v1/decas/${d.id}`, { key: c.live, body: { ref_externa: 'PED\u2060-8' } })).ref_externa).toBe(invisible('U+2060'));
    expect(campos(await app.request('GET', `/api/v1/decas?ref_externa=${encodeURIComponent('PED\u200b-7')}`, { key: c.live })).ref_externa).toBe(invisible('U+200B'));
    expect(campos(await app.request('POST', '/api/v1/agenda/empresas', { key: c.live, body: { nombre: 'Cargas\u200c del Sur', nif: 'B65410011' } })).nombre).toBe(invisible('U+200C'));
    const csv = `${COLUMNAS_CSV.join(';')}\r\n${COLUMNAS_CSV.map((k) => (k === 'ref_externa' ? 'PED\u200b-9' : k === 'origen' ? 'Lleida' : '')).join(';')}\r\n`;
    const imp = await fetch(`${app.url}/api/v1/importar?validar=1`, { method: 'POST', headers: { authorization: `Bearer ${c.live}`, 'content-type': 'text/csv' }, body: csv });
    const importacion = Importacion.parse(await imp.json());
    expect(importacion.decas[0]!.errores).toContainEqual({ linea: 2, columna: 'ref_externa', mensaje: invisible('U+200B') });
  });

  it('refuses a right-to-left mark, an Arabic letter mark and a line separator in a webhook description, on create and on change', async ({ app, c }) => {
    for (const [valor, cp] of [
      ['ERP\u200f central', 'U+200F'],
      ['ERP\u061c central', 'U+061C'],
      ['ERP\u2028central', 'U+2028'],
    ] as const) {
      const res = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: WEBHOOK, descripcion: valor } });
      expect(campos(res)).toEqual({ descripcion: `Contiene un carácter invisible (${cp}): quítelo.` });
    }
    const hook = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: WEBHOOK, descripcion: 'ERP central' } });
    expect(hook.status, hook.text).toBe(201);
    const cambio = await app.request('PATCH', `/api/v1/webhooks/${hook.body.webhook.id}`, { key: c.live, body: { descripcion: 'ERP\u061c' } });
    expect(campos(cambio).descripcion).toMatch(/U\+061C/);
    const guardada = await app.request('GET', `/api/v1/webhooks/${hook.body.webhook.id}`, { key: c.live });
    expect(guardada.body.webhook.descripcion).toBe('ERP central');
  });

  it('the completion form comes back with 422 and the field marked, and keeps no draft of it', async ({ app, c }) => {
    const d = await pendiente({ app, c });
    const res = await postForm(app, d.urls.completar!, new URLSearchParams({ accion: 'guardar', cargador_nombre: 'Frutas\u0000 SA', 'envios[0].nota': 'Frágil\nNo apilar' }).toString());
    expect(res.status).toBe(422);
    const doc = parseHtml(res.text);
    expect(doc.querySelector('#f-cargador_nombre')?.getAttribute('aria-invalid')).toBe('true');
    expect(doc.querySelector(`#${doc.querySelector('#f-cargador_nombre')?.getAttribute('aria-describedby')}`)?.textContent).toMatch(/U\+0000/);
    const borradores = await app.database.db.selectFrom('completar_borradores').selectAll().where('deca_id', '=', d.id).execute();
    expect(borradores).toEqual([]);

    const enviar = await postForm(app, d.urls.completar!, new URLSearchParams({ accion: 'enviar', cargador_nombre: 'A\u202eSL' }).toString());
    expect(enviar.status).toBe(422);
    const invisible = await postForm(app, d.urls.completar!, new URLSearchParams({ accion: 'guardar', cargador_nif: 'A5881\u200b8501' }).toString());
    expect(invisible.status).toBe(422);
    expect(invisible.text).toContain('Contiene un carácter invisible (U+200B): quítelo.');
    // Percent-escapes that are not UTF-8: a plain page, not U+FFFD stored.
    const roto = await postForm(app, d.urls.completar!, 'accion=guardar&cargador_nombre=Frutas%FF%FE');
    expect(roto.status).toBe(400);
    expect(roto.text).toMatch(/UTF-8/);
  });
});

/** Each front door, each text field: how to send a value, and where the 422 names it. */
interface Puerta {
  nombre: string;
  campos: string[];
  /** Fields whose tab and line breaks are allowed. */
  multilinea?: string[];
  /** Fields taken as typed, with no text rule (a password already set is only compared with its hash). */
  talCual?: string[];
  enviar(fx: Fx, campo: string, valor: string): Promise<TestResponse>;
  /** The field as `campos` names it. */
  ruta?(campo: string): string;
}

const CAMPOS_DECA = [
  'ref_externa',
  'cargador_nombre',
  'cargador_nif',
  'cargador_domicilio',
  'transp_nombre',
  'transp_nif',
  'transp_domicilio',
  'fecha_transporte',
  'matricula',
  'matricula_remolque',
  'autorizacion_especial',
  'observaciones',
  'conductor_nombre',
  'conductor_tel',
  'referencia',
];
const CAMPOS_ENVIO = ['origen', 'destino', 'naturaleza', 'peso', 'nota'];

let pendienteId: number | null = null;
const PUERTAS: Puerta[] = [
  {
    nombre: 'POST /decas',
    campos: [...CAMPOS_DECA, ...CAMPOS_ENVIO.map((k) => `envios[0].${k}`)],
    multilinea: ['observaciones', 'envios[0].nota'],
    enviar: ({ app, c }, campo, valor) => {
      const envio = /^envios\[0\]\.(\w+)$/.exec(campo);
      const body = envio ? { emitir: false, envios: [{ [envio[1]!]: valor }] } : { emitir: false, [campo]: valor };
      return app.request('POST', '/api/v1/decas', { key: c.live, body });
    },
  },
  {
    nombre: 'PATCH /decas/{id}',
    campos: ['cargador_nombre', 'observaciones', 'matricula', 'motivo'],
    multilinea: ['observaciones', 'motivo'],
    enviar: async ({ app, c }, campo, valor) => {
      pendienteId ??= (await pendiente({ app, c })).id;
      return app.request('PATCH', `/api/v1/decas/${pendienteId}`, { key: c.live, body: campo === 'motivo' ? { referencia: 'R', motivo: valor } : { [campo]: valor } });
    },
  },
  {
    nombre: 'POST /webhooks',
    campos: ['url', 'descripcion', 'eventos'],
    enviar: ({ app, c }, campo, valor) =>
      app.request('POST', '/demo/api/v1/webhooks', {
        key: c.test,
        body: campo === 'eventos' ? { url: WEBHOOK, eventos: [valor] } : { url: WEBHOOK, [campo]: valor },
      }),
    ruta: (campo) => (campo === 'eventos' ? 'eventos[0]' : campo),
  },
  {
    nombre: 'POST /app/api/registro',
    campos: ['nombre', 'nif', 'domicilio', 'email', 'password'],
    enviar: ({ app }, campo, valor) =>
      app.request('POST', '/app/api/registro', {
        headers: { ...CSRF, ...otraIp() },
        body: { nombre: 'Transportes Peñalara', nif: 'B12345674', domicilio: 'Calle Real 2', email: `p${ip}@example.com`, password: 'una-clave-bien-larga', [campo]: valor },
      }),
  },
  {
    nombre: 'POST /app/api/sesion',
    campos: ['email', 'password'],
    talCual: ['password'],
    enviar: ({ app }, campo, valor) =>
      app.request('POST', '/app/api/sesion', { headers: { ...CSRF, ...otraIp() }, body: { email: `nadie${ip}@example.com`, password: 'una-clave-bien-larga', [campo]: valor } }),
  },
];

describe('any text in any field of any body: never a 500', () => {
  for (const puerta of PUERTAS) {
    it(`${puerta.nombre}: ${puerta.campos.join(', ')}`, async ({ app, c }) => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...puerta.campos), texto, async (campo, valor) => {
          const res = await puerta.enviar({ app, c }, campo, valor);
          expect(res.status, `${campo}=${JSON.stringify(valor)}: ${res.text}`).toBeLessThan(500);
          const roto = prohibido(valor) || (!puerta.multilinea?.includes(campo) && /[\t\n\r]/.test(valor.trim()));
          // Compared as typed: a wrong password (or a wait); refused only when empty or too long, never for its characters.
          if (puerta.talCual?.includes(campo)) expect(res.status, res.text).toBe(valor === '' || valor.length > 200 ? 422 : res.status === 429 ? 429 : 401);
          else if (roto) expect(Object.keys(campos(res))).toContain(puerta.ruta?.(campo) ?? campo);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('GET /decas filters (query strings are UTF-8 by construction: no lone surrogates)', async ({ app, c }) => {
    const bmp = texto.filter((s) => s.isWellFormed());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('matricula', 'ref_externa', 'modificado_desde', 'despues_de', 'desde'), bmp, async (campo, valor) => {
        const res = await app.request('GET', `/api/v1/decas?${campo}=${encodeURIComponent(valor)}`, { key: c.live });
        expect(res.status, `${campo}=${JSON.stringify(valor)}: ${res.text}`).toBeLessThan(500);
        if (prohibido(valor)) expect(Object.keys(campos(res))).toContain(campo);
      }),
      { numRuns: 40 },
    );
  });

  it('the completion form', async ({ app, c }) => {
    const d = await pendiente({ app, c });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('cargador_nombre', 'cargador_domicilio', 'envios[0].origen', 'envios[0].nota'), texto, fc.constantFrom('guardar', 'enviar'), async (campo, valor, accion) => {
        // Form bodies are percent-encoded UTF-8: a lone surrogate cannot be sent, only its replacement.
        const res = await postForm(app, d.urls.completar!, new URLSearchParams({ accion, [campo]: valor.toWellFormed() }).toString());
        expect(res.status, `${campo}=${JSON.stringify(valor)}`).toBeLessThan(500);
        if (prohibido(valor.toWellFormed()) && !(campo === 'envios[0].nota' && !/[^\t\n\r]/.test(valor))) expect(res.status).toBe(422);
      }),
      { numRuns: 40 },
    );
  });
});
