import Router from '@koa/router';
import { AppError } from '../../../shared/errors';
import type { AppDeps } from '../../app';
import type { DomainContext } from '../../domain/context';
import { leerPdf } from '../../domain/decas/listar';
import { decaUrls, fichaUrl } from '../../domain/decas/urls';
import { completarPorEnlace, guardarBorrador, leerBorrador, valoresIniciales, valoresPermitidos, validarFormulario } from '../../domain/publico/completar';
import { obtenerPorToken, registrarApertura, ultimoCambio } from '../../domain/publico/descargas';
import { motivoRobot } from '../../domain/publico/robots';
import { COMPLETAR_JS, renderCompletarFormulario, renderCompletarInicio } from '../../documents/pages/completar';
import { conductorManifest, rel, renderConductor, renderFicha, renderMensaje } from '../../documents/pages/ficha';
import { html, pageHeaders } from '../../documents/pages/html';
import { PUBLIC_STYLE } from '../../documents/pages/styles';
import { renderQrPng } from '../../documents/qr';
import { clientIp } from '../client-ip';
import type { AppContext, AppState } from '../context';
import { readBody } from '../middleware/body';
import { isLimited } from '../rate-limits';

/**
 * The pages of people without an account: the inspector's `ficha` (from the
 * QR), the PDF, the driver's page, and the other party's completion form.
 * Server-rendered HTML, no JavaScript needed, every value escaped.
 */
export function createPublicRouter(deps: AppDeps, domain: DomainContext): Router<AppState> {
  const router = new Router<AppState>();
  const db = deps.database.db;
  const site = deps.config.siteUrl;

  const sendPage = (ctx: AppContext, body: string, status = 200, opts: { script?: boolean } = {}) => {
    ctx.status = status;
    ctx.set(pageHeaders(PUBLIC_STYLE, opts));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = body;
  };
  const noEncontrada = (ctx: AppContext) =>
    sendPage(ctx, renderMensaje('Documento no encontrado', 'El enlace no corresponde a ninguna DeCA. Compruebe que está completo.'), 404);

  const apertura = (ctx: AppContext, recurso: 'ficha' | 'pdf') => {
    const userAgent = ctx.get('user-agent');
    return {
      recurso,
      ip: clientIp(ctx, deps.config.trustProxy),
      navegador: userAgent || '(sin navegador)',
      robot: motivoRobot({ method: ctx.method, userAgent, headers: (h) => ctx.get(h) }),
    };
  };

  // The PDF route first: `/d/:token` would also match `<token>.pdf`.
  router.get('/d/:token.pdf', async (ctx) => {
    const row = await obtenerPorToken(db, ctx.params.token ?? '');
    if (!row) return noEncontrada(ctx);
    if (row.estado === 'pendiente') {
      return sendPage(ctx, renderMensaje(`DeCA ${row.numero} pendiente`, 'Este documento aún no se ha emitido: todavía no tiene PDF.'), 409);
    }
    const v = await leerPdf(db, { accountId: row.account_id, entorno: row.entorno }, row);
    await registrarApertura(db, deps.clock, site, row, apertura(ctx, 'pdf'));
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' });
    ctx.set('Content-Disposition', `inline; filename="DeCA-${row.numero}-v${v.version}.pdf"`);
    ctx.type = 'application/pdf';
    ctx.body = Buffer.from(v.pdf);
  });

  router.get('/d/:token', async (ctx) => {
    const row = await obtenerPorToken(db, ctx.params.token ?? '');
    if (!row) return noEncontrada(ctx);
    await registrarApertura(db, deps.clock, site, row, apertura(ctx, 'ficha'));
    sendPage(ctx, renderFicha(row, await ultimoCambio(db, row), site));
  });

  router.get('/d/:token/qr.png', async (ctx) => {
    const row = await obtenerPorToken(db, ctx.params.token ?? '');
    if (!row) return noEncontrada(ctx);
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=86400', 'X-Robots-Tag': 'noindex' });
    ctx.type = 'image/png';
    ctx.body = await renderQrPng(fichaUrl(site, row.token_publico));
  });

  router.get('/d/:token/conductor', async (ctx) => {
    const row = await obtenerPorToken(db, ctx.params.token ?? '');
    if (!row) return noEncontrada(ctx);
    sendPage(ctx, renderConductor(row, await ultimoCambio(db, row), site));
  });

  router.get('/d/:token/conductor/manifest.webmanifest', async (ctx) => {
    const row = await obtenerPorToken(db, ctx.params.token ?? '');
    if (!row) return noEncontrada(ctx);
    ctx.type = 'application/manifest+json';
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = conductorManifest(row, site);
  });

  router.get('/p/completar.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = COMPLETAR_JS;
  });

  const porEnlace = async (ctx: AppContext) => {
    const token = ctx.params.token ?? '';
    if (!/^[\w-]{20,64}$/.test(token)) return null;
    const row = await db.selectFrom('decas').select('token_publico').where('token_completar', '=', token).executeTakeFirst();
    return row ? obtenerPorToken(db, row.token_publico) : null;
  };
  const solicitanteDe = async (accountId: number) =>
    (await db.selectFrom('accounts').select('nombre').where('id', '=', accountId).executeTakeFirstOrThrow()).nombre;
  const yaEmitida = (ctx: AppContext, numero: string, token: string, status: number) =>
    sendPage(
      ctx,
      renderMensaje(
        `DeCA ${numero} ya emitida`,
        'Este enlace ya no admite cambios: el documento se emitió. Si hay que corregir algo, pídalo a quien se lo envió.',
        html`<a class="btn" href="${rel(fichaUrl(site, token))}">Ver la DeCA emitida</a>`,
      ),
      status,
    );

  router.get('/completar/:token', async (ctx) => {
    const row = await porEnlace(ctx);
    if (!row) return sendPage(ctx, renderMensaje('Enlace no válido', 'Este enlace para completar no existe, o el documento se borró.'), 404);
    if (row.estado !== 'pendiente') return yaEmitida(ctx, row.numero, row.token_publico, 200);
    sendPage(ctx, renderCompletarInicio(row, await solicitanteDe(row.account_id), ctx.path));
  });

  router.post('/completar/:token', async (ctx) => {
    const ip = clientIp(ctx, deps.config.trustProxy);
    try {
      await Promise.all([deps.limits.completarToken.consume(ctx.params.token ?? ''), deps.limits.completarIp.consume(ip)]);
    } catch (err) {
      if (!isLimited(err)) throw err;
      ctx.set('Retry-After', String(Math.ceil(err.msBeforeNext / 1000)));
      return sendPage(ctx, renderMensaje('Demasiados intentos', 'Espere unos minutos y vuelva a intentarlo.'), 429);
    }
    const row = await porEnlace(ctx);
    if (!row) return sendPage(ctx, renderMensaje('Enlace no válido', 'Este enlace para completar no existe, o el documento se borró.'), 404);
    if (row.estado !== 'pendiente') return yaEmitida(ctx, row.numero, row.token_publico, 409);

    const form = new URLSearchParams((await readBody(ctx.req, 64 * 1024)).toString('utf8'));
    const accion = form.get('accion') ?? 'abrir';
    const solicitante = await solicitanteDe(row.account_id);
    const base = { row, solicitante, action: ctx.path };
    if (accion === 'abrir') {
      return sendPage(ctx, renderCompletarFormulario({ ...base, valores: valoresIniciales(row, await leerBorrador(db, row)), errores: {} }), 200, { script: true });
    }
    const valores = { ...valoresIniciales(row, await leerBorrador(db, row)), ...valoresPermitidos(row, form) };
    if (accion === 'guardar' || accion === 'mas') {
      await guardarBorrador(db, row, valores, deps.clock.now());
      if (form.get('ajax') === '1') {
        ctx.body = { guardado: true };
        return;
      }
      const aviso = accion === 'guardar' ? 'Borrador guardado: puede cerrar la página y volver con el mismo enlace.' : undefined;
      return sendPage(ctx, renderCompletarFormulario({ ...base, valores, errores: {}, aviso, filasExtra: accion === 'mas' ? 1 : 0 }), 200, { script: true });
    }
    if (accion !== 'enviar') throw new AppError('peticion_invalida', 'Acción desconocida.');
    const r = validarFormulario(row, valores);
    if ('errores' in r) {
      await guardarBorrador(db, row, valores, deps.clock.now());
      return sendPage(ctx, renderCompletarFormulario({ ...base, valores, errores: r.errores }), 422, { script: true });
    }
    const emitida = await completarPorEnlace(domain, row, r.patch, r.enviados);
    const urls = decaUrls(site, emitida);
    sendPage(
      ctx,
      renderMensaje(
        `DeCA ${emitida.numero} emitida`,
        `Gracias. El documento se ha emitido y ${solicitante} ya lo tiene.`,
        html`<a class="btn" href="${rel(urls.ficha)}">Ver la DeCA</a><a class="btn sec" href="${rel(urls.pdf)}">Descargar el PDF</a>`,
      ),
    );
  });

  return router;
}
