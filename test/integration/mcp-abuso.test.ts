/**
 * Every MCP tool, called through the real endpoint with the SDK's client,
 * with hostile values in each of its arguments (the paths its published input
 * schema has, envios[0].origen included; each path gets a NUL, a bidi
 * override with a control and an over-long text, then random values): text
 * with NUL, other controls,
 * bidirectional characters and lone surrogates, text over any field's
 * length, and odd JSON of every kind. No call ever gives `error_interno` or
 * fails at the transport; text no field accepts is always a validation error
 * naming the argument it was in, as texto-abuso.test.ts and
 * entradas-hostiles.test.ts check for REST bodies.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { ErrorBody, parsePath } from '../../shared/errors';
import { DecaCreada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { type Fx, it, test } from '../support/fixtures';
import { hostil, prohibido, texto, valor } from '../support/hostiles';

// Hundreds of calls with one key: room in the per-key limit, and a plan with no monthly limit.
test.override('opcionesCuenta', { plan: 'pro' });
test.override('opcionesApp', { apiPoints: 100_000 });

/** Calls per tool: 15 tools × 30 calls take about 20 s on a loaded 2-core machine. */
const LLAMADAS = 30;
/** Longer than any text field takes (observaciones, the longest, takes 2000). */
const LARGO = 2001;

type Json = Record<string, unknown>;
interface Esquema {
  properties?: Record<string, Esquema>;
  items?: Esquema;
  anyOf?: Esquema[];
  $ref?: string;
  $defs?: Record<string, Esquema>;
}

/** Every argument's path in a tool's input schema (`envios[0].peso` for an array's objects), references followed. */
function rutas(schema: Esquema): string[] {
  const defs = schema.$defs ?? {};
  const resolver = (s: Esquema): Esquema => (s.$ref ? resolver(defs[s.$ref.replace('#/$defs/', '')] ?? {}) : s);
  const out: string[] = [];
  const recorrer = (s: Esquema, prefijo: string) => {
    for (const [k, p] of Object.entries(resolver(s).properties ?? {})) {
      const ruta = prefijo ? `${prefijo}.${k}` : k;
      out.push(ruta);
      for (const forma of [resolver(p), ...(resolver(p).anyOf ?? []).map(resolver)]) {
        if (forma.properties) recorrer(forma, ruta);
        if (forma.items && resolver(forma.items).properties) recorrer(forma.items, `${ruta}[0]`);
      }
    }
  };
  recorrer(schema, '');
  return [...new Set(out)];
}

/** `args` with `v` at `ruta`, the objects and arrays on the way created or copied. */
function conValor(args: Json, ruta: string, v: unknown): Json {
  const partes = parsePath(ruta);
  const raiz: Json = structuredClone(args);
  let nodo = raiz as Record<PropertyKey, unknown>;
  partes.forEach((parte, i) => {
    if (i === partes.length - 1) {
      nodo[parte] = v;
      return;
    }
    const siguiente = nodo[parte];
    if (siguiente === null || typeof siguiente !== 'object') nodo[parte] = typeof partes[i + 1] === 'number' ? [] : {};
    nodo = nodo[parte] as Record<PropertyKey, unknown>;
    if (Array.isArray(nodo) && nodo[partes[i + 1] as number] === undefined) nodo[partes[i + 1] as number] = {};
  });
  return raiz;
}

/** Text over any field's length, of letters, digits or accented letters. */
const largo = fc.tuple(fc.integer({ min: LARGO, max: LARGO + 500 }), fc.constantFrom('x', '7', 'ñ')).map(([n, ch]) => ch.repeat(n));
const hostiles = fc.oneof({ weight: 5, arbitrary: texto }, { weight: 1, arbitrary: largo }, { weight: 3, arbitrary: valor });

/** Sent to every argument of every tool: the reported NUL, a right-to-left override with a control, text too long for any field. */
const SIEMPRE = ['a\u0000b', '\u202eb\u0007', 'x'.repeat(LARGO)];

/** What one call gets: refused ⇒ the documented error body. */
function errorDe(r: CallToolResult): ErrorBody['error'] | null {
  if (!r.isError) return null;
  const c = r.content[0];
  if (c?.type !== 'text') throw new Error(`a tool error without the error body: ${JSON.stringify(r)}`);
  return ErrorBody.parse(JSON.parse(c.text)).error;
}

/** A DeCA of the account, pending or issued, for the tools that act on one. */
async function deca({ app, c }: Fx, emitir: boolean): Promise<string> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ emitir }) });
  expect(res.status, res.text).toBe(201);
  return String(DecaCreada.parse(res.body).deca.id);
}

/** Each tool's valid arguments, so the hostile value is the one thing wrong in a call (a fresh DeCA each, where one is needed). */
const BASE: Record<string, (fx: Fx) => Promise<Json>> = {
  ver_cuenta: async () => ({}),
  listar_decas: async () => ({}),
  ver_deca: async (fx) => ({ id: await deca(fx, false) }),
  historial_deca: async (fx) => ({ id: await deca(fx, false) }),
  descargas_deca: async (fx) => ({ id: await deca(fx, false) }),
  buscar_agenda: async () => ({ tipo: 'empresas' }),
  leer_albaran: async () => ({
    imagen_base64: (
      await sharp({ create: { width: 48, height: 48, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer()
    ).toString('base64'),
  }),
  validar_deca: async () => decaCompleta() as Json,
  crear_deca: async () => decaCompleta({ emitir: false }) as Json,
  modificar_deca: async (fx) => ({ id: await deca(fx, false), referencia: 'R-1' }),
  sustituir_deca: async (fx) => ({ id: await deca(fx, true), motivo: 'Cambio de cargador' }),
  emitir_deca: async (fx) => ({ id: await deca(fx, false) }),
  enviar_deca: async (fx) => ({ id: await deca(fx, true), email: 'conductor@example.com' }),
  pedir_datos: async (fx) => ({ id: await deca(fx, false) }),
  fin_servicio: async (fx) => ({ id: await deca(fx, true) }),
  ver_entregas: async (fx) => ({ id: await deca(fx, true) }),
};

async function conectar({ app, c }: Fx): Promise<{ client: Client; tools: Tool[] }> {
  const client = new Client({ name: 'abuso', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${c.live}` } } }));
  // Listed first, so the client also checks every result against the tool's output schema.
  return { client, tools: (await client.listTools()).tools };
}

describe('MCP tools with hostile input: a result or a refusal naming the argument, never error_interno', () => {
  it('covers every tool a read-write key sees', async ({ app, c }) => {
    const { client, tools } = await conectar({ app, c });
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(BASE).sort());
    await client.close();
  });

  for (const nombre of Object.keys(BASE)) {
    it(nombre, { timeout: 60_000 }, async ({ app, c }) => {
      const { client, tools } = await conectar({ app, c });
      const tool = tools.find((t) => t.name === nombre)!;
      const campos = rutas(tool.inputSchema as Esquema);
      const base = await BASE[nombre]!({ app, c });
      const propias = new Set(campos.map((r) => String(parsePath(r)[0])));
      const extra = fc.dictionary(
        hostil.filter((k) => !propias.has(k)),
        valor,
        { maxKeys: 2 },
      );
      // A tool without arguments (ver_cuenta) gets the hostile values under a name it does not know, and ignores them.
      const DESCONOCIDO = 'campo_desconocido';
      const comprobar = async (ruta: string, v: unknown, otros: Json = {}) => {
        const args = { ...otros, ...conValor(base, ruta, v) };
        const donde = `${nombre} ${ruta}=${JSON.stringify(v)?.slice(0, 120)}`;
        const r = (await client.callTool({ name: nombre, arguments: args })) as CallToolResult;
        const error = errorDe(r);
        expect(error?.codigo, `${donde}: ${JSON.stringify(error)}`).not.toBe('error_interno');
        if (error?.codigo === 'validacion') expect(Object.keys(error.campos).length, donde).toBeGreaterThan(0);
        if (ruta !== DESCONOCIDO && typeof v === 'string' && (prohibido(v) || v.length >= LARGO)) {
          expect(error?.codigo, `${donde}: ${JSON.stringify(r).slice(0, 300)}`).toBe('validacion');
          // A photo's base64 that decodes to bytes but not to a picture is named as the photo.
          const esperados = ruta === 'imagen_base64' ? ['imagen_base64', 'foto'] : [ruta];
          expect(
            Object.keys(error!.campos).some((k) => esperados.includes(k)),
            `${donde}: ${JSON.stringify(error!.campos)}`,
          ).toBe(true);
        }
      };
      for (const ruta of campos) for (const v of SIEMPRE) await comprobar(ruta, v);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...(campos.length ? campos : [DESCONOCIDO])), hostiles, extra, (ruta, v, otros) => comprobar(ruta, v, otros)),
        { numRuns: LLAMADAS },
      );
      await client.close();
    });
  }
});
