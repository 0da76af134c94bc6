import type Router from '@koa/router';
import {
  ArchivarInput,
  DecaInput,
  DecaListQuery,
  DecaPatch,
  SustituirInput,
  type CambiosList,
  type DecaCreada,
  type DecaList,
  type DecaValidada,
} from '../../../shared/schemas/deca';
import { z } from '../../../shared/schemas/zod';
import type { AppDeps } from '../../app';
import { encolarPedirDatos } from '../../domain/correo/enviar';
import { crearDeca, prepararDeca, exigirCompleta, leerDecaInput } from '../../domain/decas/crear';
import { emitirDeca } from '../../domain/decas/emitir';
import { archivarDeca, eliminarDeca, finalizarServicio } from '../../domain/decas/finalizar';
import { conIdempotencia, huella } from '../../domain/decas/idempotencia';
import { leerPdf, listarCambios, listarDecas } from '../../domain/decas/listar';
import { modificarDeca } from '../../domain/decas/modificar';
import { obtenerDeca } from '../../domain/decas/queries';
import { sustituirDeca } from '../../domain/decas/sustituir';
import { fichaUrl } from '../../domain/decas/urls';
import type { DomainContext } from '../../domain/context';
import { renderQrPng } from '../../documents/qr';
import { accountOf, actorOf, type AppContext, type AppState } from '../context';
import { jsonBody } from '../middleware/body';
import { idempotenciaDistinta, idempotencyKey, runIdempotent } from '../idempotency';
import { parse } from '../parse';
import { presentCambio, presentDeca } from '../presenters/deca';
import type { z as zod } from 'zod';

/** Keys of a JSON object body (which fields were sent, for PATCH semantics and unknown-field warnings). */
function bodyKeys(body: unknown): Set<string> {
  return new Set(body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []);
}

function objectKeys(schema: zod.ZodType): Set<string> {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return new Set(shape ? Object.keys(shape) : []);
}

const INPUT_KEYS = objectKeys(DecaInput);
const IdParam = z.object({ id: z.string() });

/** The DeCA endpoints (spec: Endpoints), mounted on both environments. */
export function decasRoutes(router: Router<AppState>, deps: AppDeps, domain: DomainContext): void {
  const db = deps.database.db;
  const body = jsonBody();
  const idOf = (ctx: AppContext) => parse(IdParam, ctx.params).id;
  const present = (row: Parameters<typeof presentDeca>[0]) => presentDeca(row, deps.config.siteUrl);

  router.post('/decas', body, async (ctx) => {
    const actor = actorOf(ctx);
    const account = accountOf(ctx);
    const input = leerDecaInput(account, ctx.state.body);
    const desconocidos = [...bodyKeys(ctx.state.body)].filter((k) => !INPUT_KEYS.has(k));
    if (input.solo_validar) {
      const p = prepararDeca(account, input, desconocidos);
      if (input.emitir) exigirCompleta(p, account);
      const answer: DecaValidada = {
        valida: true,
        lista_para_emitir: Object.keys(p.faltan).length === 0,
        faltan: p.faltan,
        datos: { emisor_rol: p.emisorRol, ...p.datos },
        avisos: p.avisos,
      };
      ctx.body = answer;
      return;
    }
    const pedirA = !input.emitir ? input.pedir_datos_email : undefined;
    const r = await crearDeca(domain, actor, account, input, {
      idempotencyKey: idempotencyKey(ctx),
      cuerpo: ctx.state.body,
      desconocidos,
      antesDeConfirmar: pedirA ? (trx, decaId) => encolarPedirDatos(trx, domain, actor, account, decaId, pedirA) : undefined,
    });
    if (pedirA && !r.replayed) deps.onMailQueued?.();
    if (r.replayed) ctx.set('Idempotent-Replayed', 'true');
    const answer: DecaCreada = { deca: present(r.deca), avisos: r.avisos };
    ctx.status = r.status;
    ctx.set('Location', `${deps.config.siteUrl}${ctx.path}/${r.deca.id}`);
    ctx.body = answer;
  });

  router.get('/decas', async (ctx) => {
    const q = parse(DecaListQuery, ctx.query);
    const { rows, siguiente } = await listarDecas(db, actorOf(ctx), q);
    const answer: DecaList = { decas: rows.map(present), siguiente };
    ctx.body = answer;
  });

  router.get('/decas/:id', async (ctx) => {
    ctx.body = { deca: present(await obtenerDeca(db, actorOf(ctx), idOf(ctx))) };
  });

  router.patch('/decas/:id', body, async (ctx) => {
    const actor = actorOf(ctx);
    const input = parse(DecaPatch, ctx.state.body);
    const row = await runIdempotent(ctx, deps, actor, (antesDeConfirmar) =>
      modificarDeca(domain, actor, accountOf(ctx), idOf(ctx), input, bodyKeys(ctx.state.body), { antesDeConfirmar }),
    );
    ctx.body = { deca: present(row) };
  });

  router.delete('/decas/:id', async (ctx) => {
    const actor = actorOf(ctx);
    const id = idOf(ctx);
    const key = idempotencyKey(ctx);
    if (!key) {
      const r = await eliminarDeca(domain, actor, id);
      ctx.body = { eliminada: true, ...r };
      return;
    }
    const r = await conIdempotencia(db, deps.clock, actor, [{ clave: `hdr:${key}`, huella: huella('DELETE', id) }], async (completarTodas) => {
      // The stored answer is what a replay gets: the same body as this one (IETF Idempotency-Key draft).
      const { numero } = await obtenerDeca(db, actor, id);
      const del = await eliminarDeca(domain, actor, id, {
        antesDeConfirmar: (trx, decaId, status) => completarTodas(trx, { decaId, status, respuesta: { eliminada: true, id: decaId, numero } }),
      });
      return { eliminada: true, ...del };
    });
    if ('hecho' in r) ctx.body = r.hecho;
    else if (r.repeticion.distinta) throw idempotenciaDistinta();
    else {
      ctx.set('Idempotent-Replayed', 'true');
      ctx.body = r.repeticion.respuesta;
    }
  });

  router.post('/decas/:id/emitir', body, async (ctx) => {
    const actor = actorOf(ctx);
    const row = await runIdempotent(ctx, deps, actor, (antesDeConfirmar) =>
      emitirDeca(domain, actor, accountOf(ctx), idOf(ctx), { antesDeConfirmar }),
    );
    ctx.body = { deca: present(row) };
  });

  router.post('/decas/:id/sustituir', body, async (ctx) => {
    const actor = actorOf(ctx);
    const input = parse(SustituirInput, ctx.state.body);
    const row = await runIdempotent(ctx, deps, actor, (antesDeConfirmar) =>
      sustituirDeca(domain, actor, accountOf(ctx), idOf(ctx), input, bodyKeys(ctx.state.body), { antesDeConfirmar }),
    );
    ctx.body = { deca: present(row) };
  });

  router.post('/decas/:id/fin', body, async (ctx) => {
    const actor = actorOf(ctx);
    const row = await runIdempotent(ctx, deps, actor, (antesDeConfirmar) => finalizarServicio(domain, actor, idOf(ctx), { antesDeConfirmar }));
    ctx.body = { deca: present(row) };
  });

  router.post('/decas/:id/archivar', body, async (ctx) => {
    const actor = actorOf(ctx);
    const { archivado } = parse(ArchivarInput, ctx.state.body);
    const row = await runIdempotent(ctx, deps, actor, (antesDeConfirmar) => archivarDeca(domain, actor, idOf(ctx), archivado, { antesDeConfirmar }));
    ctx.body = { deca: present(row) };
  });

  router.get('/decas/:id/cambios', async (ctx) => {
    const rows = await listarCambios(db, actorOf(ctx), idOf(ctx));
    const answer: CambiosList = { cambios: rows.map(presentCambio) };
    ctx.body = answer;
  });

  router.get('/decas/:id/pdf', async (ctx) => {
    const actor = actorOf(ctx);
    const deca = await obtenerDeca(db, actor, idOf(ctx));
    const v = await leerPdf(db, actor, deca);
    ctx.set('Content-Disposition', `inline; filename="DeCA-${deca.numero}-v${v.version}.pdf"`);
    ctx.set('ETag', `"${v.sha256}"`);
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.type = 'application/pdf';
    ctx.body = Buffer.from(v.pdf);
  });

  router.get('/decas/:id/qr.png', async (ctx) => {
    const deca = await obtenerDeca(db, actorOf(ctx), idOf(ctx));
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.set('Content-Disposition', `inline; filename="DeCA-${deca.numero}-qr.png"`);
    ctx.body = await renderQrPng(fichaUrl(deps.config.siteUrl, deca.token_publico));
  });
}
