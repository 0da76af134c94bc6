import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Real answers of the API checked against its OpenAPI document, the way a
 * client generated from the document reads them: the status is one the
 * operation declares; the body has a declared media type and, when JSON,
 * validates against its schema; every header declared `required` is there,
 * every declared header that is there holds what its schema says; and the
 * answer carries no header of its own that the document does not declare
 * (only generic HTTP fields — caching, compression, security policy — are
 * left out of that last check).
 */

type Esquema = Record<string, unknown>;
type Ref = { $ref: string };
interface Cabecera {
  required?: boolean;
  schema?: Esquema;
}
interface Respuesta {
  headers?: Record<string, Cabecera | Ref>;
  content?: Record<string, { schema?: Esquema }>;
}
interface Parametro {
  in: string;
  name: string;
  required?: boolean;
  schema?: Esquema;
}
interface Operacion {
  operationId: string;
  parameters?: (Parametro | Ref)[];
  requestBody?: { content: Record<string, { schema?: Esquema }> };
  responses: Record<string, Respuesta | Ref>;
}
export interface DocumentoOpenApi {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operacion>>;
  webhooks?: Record<string, Record<string, Operacion>>;
  components: Record<string, Record<string, unknown>>;
}

/** One answer as the test saw it. */
export interface Vista {
  metodo: string;
  /** The path as requested, from the API's base on (`/api/v1/decas/12?x=1`). */
  ruta: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text. */
  body: unknown;
}

/** HTTP's own fields and those every answer of the site carries for the browser, not the API's. */
const GENERICAS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'vary',
  'cache-control',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'strict-transport-security',
]);

/** The base path of the API in an environment's document (`/api/v1`, `/demo/api/v1`). */
export const basePath = (doc: DocumentoOpenApi): string => new URL(doc.servers[0]!.url).pathname;

export function validadorDe(doc: DocumentoOpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Schemas reference `#/components/…` of the document: one schema with the same `components` answers those.
  ajv.addSchema({ $id: 'https://contrato.invalid/openapi', components: doc.components });
  const cache = new Map<string, ValidateFunction>();
  const compilar = (s: Esquema): ValidateFunction => {
    const texto = JSON.stringify(s).replaceAll('"#/components/', '"https://contrato.invalid/openapi#/components/');
    let v = cache.get(texto);
    if (!v) {
      v = ajv.compile(JSON.parse(texto) as Esquema);
      cache.set(texto, v);
    }
    return v;
  };
  const resolver = <T>(x: T | Ref): T => {
    let o: unknown = x;
    while (o && typeof o === 'object' && '$ref' in o) {
      o = (o as Ref).$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((acc, k) => (acc as Record<string, unknown>)[k.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    }
    return o as T;
  };
  const plantillas = Object.keys(doc.paths).map((p) => ({
    p,
    re: new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
    literal: !p.includes('{'),
  }));
  const base = basePath(doc);

  /** A header's text as its schema reads it (`simple` style: a number is its digits). */
  const valorDe = (texto: string, schema: Esquema | undefined): unknown => ((schema?.type === 'integer' || schema?.type === 'number') && /^-?\d+(\.\d+)?$/.test(texto) ? Number(texto) : texto);
  const errores = (v: ValidateFunction) => (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');

  /** Every way `v` differs from the document (empty: it matches). */
  function comprobar(v: Vista): string[] {
    const donde = `${v.metodo} ${v.ruta} → ${v.status}`;
    const camino = v.ruta.split('?')[0]!;
    if (!camino.startsWith(`${base}/`)) return [`${donde}: fuera de ${base}`];
    const relativo = camino.slice(base.length);
    const plantilla = plantillas.find((t) => t.literal && t.p === relativo) ?? plantillas.find((t) => t.re.test(relativo));
    const op = plantilla ? doc.paths[plantilla.p]?.[v.metodo.toLowerCase()] : undefined;
    if (!op) return [`${donde}: operación no documentada`];
    const declarada = op.responses[String(v.status)] ?? op.responses[`${String(v.status)[0]}XX`] ?? op.responses.default;
    if (!declarada) return [`${donde}: ${op.operationId} no declara ${v.status} (declara ${Object.keys(op.responses).join(', ')})`];
    const r = resolver<Respuesta>(declarada);
    const fallos: string[] = [];

    const cabeceras = new Map(Object.entries(r.headers ?? {}).map(([n, h]) => [n.toLowerCase(), { nombre: n, ...resolver<Cabecera>(h) }]));
    for (const [clave, h] of cabeceras) {
      const valor = v.headers.get(clave);
      if (valor === null) {
        if (h.required) fallos.push(`${donde}: falta la cabecera ${h.nombre}, declarada obligatoria`);
        continue;
      }
      if (h.schema) {
        const val = compilar(h.schema);
        if (!val(valorDe(valor, h.schema))) fallos.push(`${donde}: cabecera ${h.nombre}: «${valor}» ${errores(val)}`);
      }
    }
    v.headers.forEach((_, clave) => {
      if (!GENERICAS.has(clave) && !cabeceras.has(clave)) fallos.push(`${donde}: cabecera ${clave} no declarada en ${op.operationId} ${v.status}`);
    });

    const tipo = (v.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const medios = r.content ?? {};
    // A range such as `image/*` declares every type of its kind, as OpenAPI reads it.
    const declarado = tipo in medios || `${tipo.split('/')[0]}/*` in medios;
    if (v.status === 204 || v.status === 304) {
      if (tipo && Object.keys(medios).length === 0 && v.body !== '') fallos.push(`${donde}: cuerpo en una respuesta sin contenido`);
    } else if (!declarado) {
      fallos.push(`${donde}: tipo ${tipo || '(ninguno)'} no declarado (declara ${Object.keys(medios).join(', ') || 'ninguno'})`);
    } else if (tipo === 'application/json' && medios[tipo]?.schema) {
      const val = compilar(medios[tipo].schema);
      if (!val(v.body)) fallos.push(`${donde}: cuerpo: ${errores(val)}`);
    }
    return fallos;
  }

  /**
   * A webhook delivery (the request this service sends) against the
   * document's `webhooks` entry for its event: the headers declared as its
   * parameters, and its JSON body.
   */
  function comprobarEntrega(evento: string, headers: Record<string, string | string[] | undefined>, body: unknown): string[] {
    const op = doc.webhooks?.[evento]?.post;
    if (!op) return [`entrega ${evento}: evento no documentado en webhooks`];
    const fallos: string[] = [];
    for (const p of (op.parameters ?? []).map((x) => resolver<Parametro>(x)).filter((p) => p.in === 'header')) {
      const valor = headers[p.name.toLowerCase()];
      if (valor === undefined) {
        if (p.required) fallos.push(`entrega ${evento}: falta la cabecera ${p.name}`);
        continue;
      }
      if (p.schema) {
        const val = compilar(p.schema);
        if (!val(valorDe(String(valor), p.schema))) fallos.push(`entrega ${evento}: cabecera ${p.name}: «${String(valor)}» ${errores(val)}`);
      }
    }
    // Every header of our own (`X-…`, Standard Webhooks' `webhook-…`) is declared.
    const declaradas = new Set(
      (op.parameters ?? [])
        .map((x) => resolver<Parametro>(x))
        .filter((p) => p.in === 'header')
        .map((p) => p.name.toLowerCase()),
    );
    for (const nombre of Object.keys(headers)) {
      if (/^(x-|webhook-)/.test(nombre) && !declaradas.has(nombre)) fallos.push(`entrega ${evento}: cabecera ${nombre} no declarada`);
    }
    const schema = op.requestBody?.content['application/json']?.schema;
    if (schema) {
      const val = compilar(schema);
      if (!val(body)) fallos.push(`entrega ${evento}: cuerpo: ${errores(val)}`);
    }
    return fallos;
  }

  /** `metodo ruta-plantilla estado` of an answer that matched the document (for coverage). */
  function clave(v: Vista): string | null {
    const relativo = v.ruta.split('?')[0]!.slice(base.length);
    const t = plantillas.find((x) => x.literal && x.p === relativo) ?? plantillas.find((x) => x.re.test(relativo));
    return t ? `${v.metodo.toLowerCase()} ${t.p} ${v.status}` : null;
  }

  return { comprobar, comprobarEntrega, clave };
}
