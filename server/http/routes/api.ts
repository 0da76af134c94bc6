import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type Router from '@koa/router';
import { VACIO } from '../../../shared/api/operaciones';
import { type NombreOperacion, rutaKoa } from '../../../shared/api/rutas';
import type { DecaCreada } from '../../../shared/schemas/deca';
import type { ResultadoCrear } from '../../commands/decas';
import { OPERACIONES_API, type OperacionApi } from '../../commands/operaciones';
import type { AppDeps } from '../../deps';
import type { DatasetEfti } from '../../domain/efti/leer';
import type { AppContext, AppMiddleware, AppState } from '../context';
import { jsonBody, KB } from '../middleware/body';
import { jsonDe } from '../middleware/json';
import { leerCsvSubido, leerFotoSubida } from '../middleware/subida';
import { autorizarAntes, correr, entrada } from '../run';

type Ctx = AppContext & { params: Record<string, string> };

/**
 * What HTTP adds to an operation besides the table: reading an upload, and
 * answers that are more than a JSON body (a status other than 200, a
 * `Location`, a file, a cache rule). Only the operations that need it.
 */
interface Puerta {
  entrada?: (ctx: Ctx) => Promise<unknown>;
  responder?: (ctx: Ctx, valor: never, config: AppDeps['config']) => void;
}

/**
 * A file of the account's (a DeCA's PDF, a receipt, a signature, a photo, a
 * dataset): shown inline under its name, tagged with its SHA-256, and kept by
 * the client's cache only (never a shared one), which asks again each time:
 * it never changes once made, so the answer is then a 304.
 */
function ficheroDeLaCuenta(ctx: Ctx, f: { nombre: string; tipo: string; sha256: string; cuerpo: Buffer | string }): void {
  ctx.set('Content-Disposition', `inline; filename="${f.nombre}"`);
  ctx.set('ETag', `"${f.sha256}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.type = f.tipo;
  ctx.body = f.cuerpo;
}

const PUERTAS: Partial<Record<NombreOperacion, Puerta>> = {
  crear_deca: {
    responder(ctx, r: ResultadoCrear, config) {
      if (r.tipo === 'validada') {
        ctx.body = r.validada;
        return;
      }
      // A repeat found by `ref_externa` (no Idempotency-Key) is a repeat too.
      if (!r.nueva) ctx.set('Idempotent-Replayed', 'true');
      ctx.status = r.nueva ? 201 : 200;
      ctx.set('Location', `${config.siteUrl}${ctx.path}/${r.deca.id}`);
      const answer: DecaCreada = { deca: r.deca, avisos: r.avisos };
      ctx.body = answer;
    },
  },
  documentos_camino: {
    responder(ctx, valor: object) {
      // A device's documents for the road: never kept by a cache between it and us.
      ctx.set('Cache-Control', 'no-store');
      ctx.body = valor;
    },
  },
  pdf_deca: {
    responder(ctx, v: { numero: string; version: number; sha256: string; pdf: Uint8Array }) {
      ficheroDeLaCuenta(ctx, { nombre: `DeCA-${v.numero}-v${v.version}.pdf`, tipo: 'application/pdf', sha256: v.sha256, cuerpo: Buffer.from(v.pdf) });
    },
  },
  efti_deca: {
    responder(ctx, v: DatasetEfti) {
      ctx.set('Efti-Gate-Id', v.uil.gateId);
      ctx.set('Efti-Platform-Id', v.uil.platformId);
      ctx.set('Efti-Dataset-Id', v.uil.datasetId);
      ctx.set('Efti-Subsets', v.subsets.join(','));
      // A version's dataset never changes once issued (its PDF's data); the tag tells a client it has it already.
      const sha256 = createHash('sha256').update(v.xml).digest('hex');
      ficheroDeLaCuenta(ctx, { nombre: `DeCA-${v.numero}-v${v.version}-efti.xml`, tipo: 'application/xml; charset=utf-8', sha256, cuerpo: v.xml });
    },
  },
  pdf_entrega: {
    responder(ctx, v: { numero: string; n: number; sha256: string; pdf: Uint8Array }) {
      ficheroDeLaCuenta(ctx, { nombre: `DeCA-${v.numero}-entrega-${v.n}.pdf`, tipo: 'application/pdf', sha256: v.sha256, cuerpo: Buffer.from(v.pdf) });
    },
  },
  firma_entrega: {
    responder(ctx, v: { numero: string; n: number; sha256: string; png: Uint8Array }) {
      ficheroDeLaCuenta(ctx, { nombre: `DeCA-${v.numero}-entrega-${v.n}-firma.png`, tipo: 'image/png', sha256: v.sha256, cuerpo: Buffer.from(v.png) });
    },
  },
  pedir_firma_remota: {
    responder(ctx, answer: { firma_remota: { id: number } }, config) {
      ctx.status = 201;
      ctx.set('Location', `${config.siteUrl}${ctx.path}/${answer.firma_remota.id}`);
      // The link is shown this once (only its digest is kept).
      ctx.set('Cache-Control', 'no-store');
      ctx.body = answer;
    },
  },
  foto_deca: {
    responder(ctx, v: { numero: string; tipo: string; sha256: string; foto: Uint8Array }) {
      const extension = v.tipo.startsWith('image/') ? v.tipo.slice(6).replace('jpeg', 'jpg') : 'bin';
      ficheroDeLaCuenta(ctx, { nombre: `DeCA-${v.numero}-albaran.${extension}`, tipo: v.tipo, sha256: v.sha256, cuerpo: Buffer.from(v.foto) });
    },
  },
  qr_deca: {
    responder(ctx, { numero, png }: { numero: string; png: Buffer }) {
      ctx.type = 'image/png';
      ctx.set('Cache-Control', 'private, max-age=86400');
      ctx.set('Content-Disposition', `inline; filename="DeCA-${numero}-qr.png"`);
      ctx.body = png;
    },
  },
  importar_csv: {
    entrada: async (ctx) => ({ ...ctx.query, archivo: await leerCsvSubido(ctx.req) }),
  },
  exportar_csv: {
    responder(ctx, lineas: AsyncIterable<string> | Iterable<string>) {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', 'attachment; filename="decas.csv"');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = Readable.from(lineas);
    },
  },
  leer_albaran: {
    entrada: async (ctx) => ({ foto: await leerFotoSubida(ctx.req) }),
  },
  crear_webhook: {
    responder(ctx, answer: { webhook: { id: number } }, config) {
      ctx.status = 201;
      ctx.set('Location', `${config.siteUrl}${ctx.path}/${answer.webhook.id}`);
      // The answer carries the secret, shown this once.
      ctx.set('Cache-Control', 'no-store');
      ctx.body = answer;
    },
  },
};

/**
 * A command's input from the request, as the table says the operation takes
 * it: the query (when it has one), the JSON body (when it has one that is not
 * `{}`), the fields the path fixes, and the path's parameters, which win.
 */
function entradaDe(ctx: Ctx, op: OperacionApi): unknown {
  const conCuerpo = op.cuerpo !== undefined && op.cuerpo !== VACIO;
  const base = conCuerpo ? entrada(ctx) : { ...ctx.params };
  // A body that is not an object goes to the command as it is, for its schema to refuse (422).
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return base;
  return { ...(op.consulta ? ctx.query : {}), ...base, ...op.fijo, ...ctx.params };
}

/** The answer of a command's result, when the operation needs nothing more than JSON. */
function responderJson(ctx: Ctx, op: OperacionApi, valor: unknown): void {
  if (op.envoltorio) {
    // Serialised once per presented object (a cached DeCA is answered again and again).
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = jsonDe(op.envoltorio, valor as object);
    return;
  }
  ctx.body = valor;
}

/**
 * Every operation of the table, mounted on `router` (both environments mount
 * the same): each a command run for the request's actor and Idempotency-Key.
 */
export function apiRoutes(router: Router<AppState>, { config, services }: AppDeps): void {
  for (const op of OPERACIONES_API) {
    const puerta = PUERTAS[op.nombre] ?? {};
    const antes: AppMiddleware[] = [];
    if (puerta.entrada) {
      // An upload: a read-only key or a role without the permission is refused before 2 MB are read.
      antes.push(async (ctx, next) => {
        autorizarAntes(ctx, op.comando as Parameters<typeof autorizarAntes>[1]);
        await next();
      });
    } else if (op.cuerpo) {
      antes.push(jsonBody((op.limiteKB ?? 256) * KB));
    }
    router[op.metodo](rutaKoa(op.ruta), ...antes, async (ctx) => {
      const c = ctx as Ctx;
      const input = puerta.entrada ? await puerta.entrada(c) : entradaDe(c, op);
      const valor = await correr(c, services, op.comando as Parameters<typeof correr>[2], input);
      if (puerta.responder) puerta.responder(c, valor as never, config);
      else responderJson(c, op, valor);
    });
  }
}
