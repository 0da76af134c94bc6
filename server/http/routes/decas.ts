import type Router from '@koa/router';
import type { DecaCreada } from '../../../shared/schemas/deca';
import {
  archivarDeca,
  crearDeca,
  descargasDeca,
  documentosCamino,
  eliminarDeca,
  emitirDeca,
  enviarDeca,
  controlCarretera,
  finServicio,
  historialDeca,
  listarDecas,
  modificarDeca,
  pdfDeca,
  pedirDatos,
  qrDeca,
  sustituirDeca,
  verDeca,
} from '../../commands/decas';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { jsonBody, KB } from '../middleware/body';
import { jsonDe } from '../middleware/json';
import { correr, entrada } from '../run';

/** The DeCA endpoints (spec: Endpoints), mounted on both environments: each a command, written as JSON (or bytes). */
export function decasRoutes(router: Router<AppState>, { config, services }: AppDeps): void {
  const body = jsonBody();
  const small = jsonBody(16 * KB);

  router.post('/decas', body, async (ctx) => {
    const r = await correr(ctx, services, crearDeca, ctx.state.body);
    if (r.tipo === 'validada') {
      ctx.body = r.validada;
      return;
    }
    if (!r.nueva) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = r.nueva ? 201 : 200;
    ctx.set('Location', `${config.siteUrl}${ctx.path}/${r.deca.id}`);
    const answer: DecaCreada = { deca: r.deca, avisos: r.avisos };
    ctx.body = answer;
  });

  router.get('/decas', async (ctx) => {
    ctx.body = await correr(ctx, services, listarDecas, ctx.query);
  });

  // Extension: a device's documents for the road in one request (the window by the server's date).
  router.get('/camino', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await correr(ctx, services, documentosCamino, ctx.query);
  });

  router.get('/decas/:id', async (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = jsonDe('deca', await correr(ctx, services, verDeca, ctx.params));
  });

  router.patch('/decas/:id', body, async (ctx) => {
    ctx.body = { deca: await correr(ctx, services, modificarDeca, entrada(ctx)) };
  });

  router.delete('/decas/:id', async (ctx) => {
    ctx.body = await correr(ctx, services, eliminarDeca, ctx.params);
  });

  router.post('/decas/:id/emitir', small, async (ctx) => {
    ctx.body = { deca: await correr(ctx, services, emitirDeca, ctx.params) };
  });

  router.post('/decas/:id/sustituir', body, async (ctx) => {
    ctx.body = { deca: await correr(ctx, services, sustituirDeca, entrada(ctx)) };
  });

  // Extension: a roadside check's code (answers { deca, control, sede_url }).
  router.post('/decas/:id/control', small, async (ctx) => {
    ctx.body = await correr(ctx, services, controlCarretera, entrada(ctx));
  });

  router.post('/decas/:id/fin', small, async (ctx) => {
    ctx.body = { deca: await correr(ctx, services, finServicio, ctx.params) };
  });

  router.post('/decas/:id/archivar', small, async (ctx) => {
    ctx.body = { deca: await correr(ctx, services, archivarDeca, entrada(ctx)) };
  });

  router.post('/decas/:id/pedir-datos', small, async (ctx) => {
    ctx.body = await correr(ctx, services, pedirDatos, entrada(ctx));
  });

  router.post('/decas/:id/enviar', small, async (ctx) => {
    ctx.body = await correr(ctx, services, enviarDeca, entrada(ctx));
  });

  router.get('/decas/:id/cambios', async (ctx) => {
    ctx.body = await correr(ctx, services, historialDeca, ctx.params);
  });

  router.get('/decas/:id/descargas', async (ctx) => {
    ctx.body = await correr(ctx, services, descargasDeca, ctx.params);
  });

  router.get('/decas/:id/pdf', async (ctx) => {
    const v = await correr(ctx, services, pdfDeca, ctx.params);
    ctx.set('Content-Disposition', `inline; filename="DeCA-${v.numero}-v${v.version}.pdf"`);
    ctx.set('ETag', `"${v.sha256}"`);
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.type = 'application/pdf';
    ctx.body = Buffer.from(v.pdf);
  });

  router.get('/decas/:id/qr.png', async (ctx) => {
    const { numero, png } = await correr(ctx, services, qrDeca, ctx.params);
    ctx.type = 'image/png';
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.set('Content-Disposition', `inline; filename="DeCA-${numero}-qr.png"`);
    ctx.body = png;
  });
}
