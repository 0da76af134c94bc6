import Router from '@koa/router';
import { AppError } from '../../../shared/errors';
import type { PasoCompletar } from '../../../shared/schemas/publico';
import type { z } from '../../../shared/schemas/zod';
import { descargarExportacionCommand, exportacionDescargadaCommand, verExportacionCommand } from '../../commands/cierre';
import { type Command, ejecutar } from '../../commands/command';
import { confirmarEmailCommand } from '../../commands/cuenta';
import {
  abrirCompletarCommand,
  abrirFirmaRemotaCommand,
  completarDecaCommand,
  firmarEntregaRemotaCommand,
  manifiestoConductorCommand,
  pdfPublicoCommand,
  qrPublicoCommand,
  verConductorCommand,
  verFichaCommand,
  verificarPdfCommand,
  verJustificanteCommand,
} from '../../commands/publico';
import { comoNoDisponible } from '../../db/errores';
import type { AppDeps } from '../../deps';
import { type AppContext, type AppState, visitanteOf } from '../context';
import { formularioUtf8, readBody } from '../middleware/body';
import { leerArchivoSubido } from '../middleware/subida';
import { COMPLETAR_JS, renderCompletarFormulario, renderCompletarInicio } from '../pages/completar';
import { renderExportacion } from '../pages/exportacion';
import { conductorManifest, rel, renderConductor, renderFicha, renderFichaOffline, renderFichaOfflineRechazada, renderMensaje } from '../pages/ficha';
import { FIRMA_JS, renderFirmada, renderFirmaRemota } from '../pages/firma-remota';
import { html, pageHeaders } from '../pages/html';
import { RUTA_PRIVACIDAD, renderPrivacidad } from '../pages/privacidad';
import { PUBLIC_STYLES } from '../pages/styles';
import { RUTA_VERIFICAR, renderJustificante, renderVerificar } from '../pages/verificar';

/** Title of the page that explains a refusal, by its code. */
const TITULOS: Partial<Record<string, string>> = {
  no_encontrado: 'Documento no encontrado',
  pendiente: 'DeCA pendiente',
  demasiadas_peticiones: 'Demasiados intentos',
  validacion: 'Petición no válida',
  no_disponible: 'Servicio no disponible',
  entregado: 'Entrega ya firmada',
  enlace_caducado: 'Enlace caducado',
};

/**
 * The pages of people without an account: the inspector's `ficha` (from the
 * QR), the PDF, the driver's page, the other party's completion form, and
 * the e-mail confirmation link. Server-rendered HTML that needs no
 * JavaScript, every value escaped; each page is one command, and a refusal
 * is shown as a page saying what happened, with its status.
 */
export function createPublicRouter({ config, services }: AppDeps): Router<AppState> {
  const router = new Router<AppState>();

  const sendPage = (ctx: AppContext, body: string, status = 200, opts: { script?: boolean } = {}) => {
    ctx.status = status;
    ctx.set(pageHeaders(PUBLIC_STYLES, opts));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = body;
  };

  /** A refusal as a page that says what happened. */
  const paginaDeError = (err: AppError) => renderMensaje(TITULOS[err.codigo] ?? 'No se puede mostrar', err.message);

  /**
   * Run a public command for the visitor; a refusal becomes a page (by default
   * the message page; a form shows itself again with the error), with its
   * status and Retry-After when it has one.
   */
  async function run<S extends z.ZodType, O>(ctx: AppContext, cmd: Command<S, O, 'publico'>, input: unknown, pagina = paginaDeError): Promise<O | null> {
    try {
      return (await ejecutar(services, cmd, visitanteOf(ctx, config.trustProxy), input)).valor;
    } catch (err) {
      // The database out of reach: the inspector reads a page that says so (503, Retry-After), not a JSON body.
      const noDisponible = err instanceof AppError ? null : comoNoDisponible(err);
      if (noDisponible) ctx.state.log.warn({ err }, 'database unavailable');
      const e = noDisponible ?? err;
      if (!(e instanceof AppError) || (e.status >= 500 && !noDisponible)) throw err;
      for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
      sendPage(ctx, pagina(e), e.status);
      return null;
    }
  }

  // The PDF route first: `/d/:token` would also match `<token>.pdf`.
  router.get('/d/:token.pdf', async (ctx) => {
    const v = await run(ctx, pdfPublicoCommand, ctx.params);
    if (!v) return;
    ctx.set({ 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' });
    ctx.set('Content-Disposition', `inline; filename="DeCA-${v.numero}-v${v.version}.pdf"`);
    ctx.type = 'application/pdf';
    ctx.body = Buffer.from(v.pdf);
  });

  router.get('/d/:token', async (ctx) => {
    const o = typeof ctx.query.o === 'string' ? ctx.query.o : undefined;
    // With a signed summary, not found means it did not verify: the page says so as large as a verified one.
    const rechazo = (e: AppError) => (o !== undefined && e.codigo === 'no_encontrado' ? renderFichaOfflineRechazada(e.message) : paginaDeError(e));
    const f = await run(ctx, verFichaCommand, { ...ctx.params, o }, rechazo);
    if (f?.tipo === 'deca') sendPage(ctx, renderFicha(f));
    else if (f) sendPage(ctx, renderFichaOffline(f.offline));
  });

  router.get('/d/:token/qr.png', async (ctx) => {
    const q = await run(ctx, qrPublicoCommand, ctx.params);
    if (!q) return;
    ctx.set({ 'Cache-Control': 'public, max-age=86400', 'X-Robots-Tag': 'noindex' });
    ctx.type = 'image/png';
    ctx.body = q.png;
  });

  router.get('/d/:token/conductor', async (ctx) => {
    const f = await run(ctx, verConductorCommand, ctx.params);
    if (f) sendPage(ctx, renderConductor(f));
  });

  router.get('/d/:token/conductor/manifest.webmanifest', async (ctx) => {
    const m = await run(ctx, manifiestoConductorCommand, ctx.params);
    if (!m) return;
    ctx.type = 'application/manifest+json';
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = conductorManifest(m.deca);
  });

  router.get('/p/completar.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = COMPLETAR_JS;
  });

  const yaEmitida = (ctx: AppContext, p: Extract<PasoCompletar, { tipo: 'ya_emitida' }>, status: number) =>
    sendPage(
      ctx,
      renderMensaje(
        `DeCA ${p.numero} ya emitida`,
        'Este enlace ya no admite cambios: el documento se emitió. Si hay que corregir algo, pídalo a quien se lo envió.',
        html`<a class="btn" href="${rel(p.ficha)}">Ver la DeCA emitida</a>`,
      ),
      status,
    );

  router.get('/completar/:token', async (ctx) => {
    const p = await run(ctx, abrirCompletarCommand, ctx.params);
    if (!p) return;
    if (p.tipo === 'ya_emitida') return yaEmitida(ctx, p, 200);
    if (p.tipo === 'inicio') sendPage(ctx, renderCompletarInicio(p, ctx.path));
  });

  router.post('/completar/:token', async (ctx) => {
    let pares: [string, string][];
    try {
      pares = formularioUtf8(await readBody(ctx.req, 64 * 1024));
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return sendPage(ctx, renderMensaje('No se puede leer el formulario', err.message), err.status);
    }
    const primero = (k: string) => pares.find(([n]) => n === k)?.[1];
    const p = await run(ctx, completarDecaCommand, {
      token: ctx.params.token,
      accion: primero('accion') ?? 'abrir',
      campos: pares,
      ajax: primero('ajax') === '1',
      avisosConfirmados: primero('avisos_confirmados'),
    });
    if (!p) return;
    switch (p.tipo) {
      case 'ya_emitida':
        return yaEmitida(ctx, p, 409);
      case 'guardado':
        ctx.body = { guardado: true };
        return;
      case 'formulario': {
        // Not issued: errors, fields it may not set, or warnings to confirm first.
        const noEmitida = Object.keys(p.errores).length > 0 || Boolean(p.rechazados?.length) || p.confirmar !== undefined;
        return sendPage(ctx, renderCompletarFormulario({ ...p, action: ctx.path }), noEmitida ? 422 : 200, { script: true });
      }
      case 'emitida':
        return sendPage(
          ctx,
          renderMensaje(
            `DeCA ${p.deca.numero} emitida`,
            `Gracias. El documento se ha emitido y ${p.solicitante} ya lo tiene.`,
            html`<a class="btn" href="${rel(p.deca.urls.ficha)}">Ver la DeCA</a><a class="btn sec" href="${rel(p.deca.urls.pdf)}">Descargar el PDF</a>`,
          ),
        );
      case 'inicio':
        return sendPage(ctx, renderCompletarInicio(p, ctx.path));
    }
  });

  router.get('/p/firma.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = FIRMA_JS;
  });

  // «Firmar en su móvil»: the consignee's own phone, no account. Opening the link changes nothing; the post signs.
  router.get('/f/:token', async (ctx) => {
    const v = await run(ctx, abrirFirmaRemotaCommand, ctx.params);
    if (v) sendPage(ctx, renderFirmaRemota(v, { action: ctx.path }), 200, { script: true });
  });

  router.post('/f/:token', async (ctx) => {
    let pares: [string, string][];
    try {
      // Room for a long signature's points (the pad's JSON) besides the text fields.
      pares = formularioUtf8(await readBody(ctx.req, 256 * 1024));
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return sendPage(ctx, renderMensaje('No se puede leer el formulario', err.message), err.status);
    }
    const valores = Object.fromEntries(pares.filter(([k]) => ['resultado', 'receptor_nombre', 'receptor_documento', 'reservas', 'sin_reservas', 'motivo_rechazo', 'firma'].includes(k)));
    const p = await run(ctx, firmarEntregaRemotaCommand, { token: ctx.params.token, valores });
    if (!p) return;
    if (p.tipo === 'firmada') return sendPage(ctx, renderFirmada(p.vista, p.entrega, p.avisos));
    sendPage(ctx, renderFirmaRemota(p.vista, { action: ctx.path, valores: p.valores, errores: p.errores }), 422, { script: true });
  });

  // A delivery receipt's own page (its QR): that it is authentic and what it confirms, never the signature or photos.
  router.get('/e/:token', async (ctx) => {
    const j = await run(ctx, verJustificanteCommand, ctx.params);
    if (!j) return;
    ctx.set({ 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' });
    sendPage(ctx, renderJustificante(j));
  });

  // The authenticity check: a form that takes the PDF (no JavaScript); the file is hashed as it arrives, never stored.
  router.get(RUTA_VERIFICAR, (ctx) => sendPage(ctx, renderVerificar({})));

  router.post(RUTA_VERIFICAR, async (ctx) => {
    let subido;
    try {
      subido = await leerArchivoSubido(ctx.req);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return sendPage(ctx, renderVerificar({ error: err.message }), err.status);
    }
    const resultado = await run(ctx, verificarPdfCommand, subido, (err) => renderVerificar({ error: err.message }));
    if (resultado) sendPage(ctx, renderVerificar({ resultado }));
  });

  // What personal data the service keeps, why and for how long (static: the same page for everyone).
  router.get(RUTA_PRIVACIDAD, (ctx) => sendPage(ctx, renderPrivacidad()));

  // A closed account's data: the link's page shows a button (mail scanners open links by themselves and must
  // not spend the one download); the POST sends the ZIP, and the link is spent once the whole file went out.
  router.get('/p/exportacion/:token', async (ctx) => {
    const v = await run(ctx, verExportacionCommand, ctx.params);
    if (v) sendPage(ctx, renderExportacion(v));
  });

  router.post('/p/exportacion/:token', async (ctx) => {
    const a = await run(ctx, descargarExportacionCommand, ctx.params);
    if (!a) return;
    const token = ctx.params.token;
    const visitante = visitanteOf(ctx, config.trustProxy);
    const log = ctx.state.log;
    ctx.res.once('finish', () => {
      ejecutar(services, exportacionDescargadaCommand, visitante, { token }).catch((err: unknown) => log.warn({ err }, 'export download not recorded'));
    });
    ctx.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' });
    ctx.set('Content-Disposition', `attachment; filename="${a.nombre}"`);
    ctx.type = 'application/zip';
    ctx.length = a.bytes;
    ctx.body = a.flujo;
  });

  // The link only shows a button: mail scanners open links by themselves, and must not confirm for the person.
  router.get('/confirmar/:token', (ctx) => {
    sendPage(
      ctx,
      renderMensaje(
        'Confirmar el correo',
        'Pulse el botón para confirmar el correo de su cuenta de DeCA.',
        html`<form method="post" action="${ctx.path}"><button class="btn" type="submit">Confirmar el correo</button></form>`,
      ),
    );
  });

  router.post('/confirmar/:token', async (ctx) => {
    const r = await run(ctx, confirmarEmailCommand, ctx.params);
    if (!r) return;
    sendPage(
      ctx,
      renderMensaje('Correo confirmado', `Gracias. La cuenta de ${r.cuenta.nombre} ya puede emitir DeCA reales y crear claves de API de producción.`, html`<a class="btn" href="/">Abrir DeCA</a>`),
    );
  });

  return router;
}
