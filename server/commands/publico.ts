import { AppError } from '../../shared/errors';
import { cadena } from '../../shared/schemas/envio';
import type { AutenticidadVista, FichaPublica, JustificantePublico, PasoCompletar, VistaFicha } from '../../shared/schemas/publico';
import { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import { renderQrPng } from '../documents/qr';
import { mapPlan, type Plan } from '../domain/context';
import { leerPdf } from '../domain/decas/listar';
import type { DecaConRefs } from '../domain/decas/queries';
import { fichaUrl } from '../domain/decas/urls';
import { abrirFirmaRemota, type PasoFirmaRemota, prepararFirmaDelDestinatario, type ValoresFirmaRemota } from '../domain/entregas/firma-remota';
import { escritura } from '../domain/plan';
import { type PasoFormulario, presentAutenticidad, presentCompletarFormulario, presentCompletarInicio, presentDecaPublica, presentFicha, presentYaEmitida } from '../domain/presenters/publico';
import { versionPorHuella } from '../domain/publico/autenticidad';
import {
  avisosFormulario,
  camposAjenos,
  erroresDeTexto,
  guardarBorrador,
  huellaAvisos,
  leerBorrador,
  obtenerPorEnlace,
  prepararCompletar,
  validarFormulario,
  valoresIniciales,
  valoresPermitidos,
} from '../domain/publico/completar';
import { type Apertura, ESPERA_APERTURA_MS, obtenerPorToken, prepararApertura, ultimoCambio } from '../domain/publico/descargas';
import { entregasPublicas, justificantePorHuella, justificantePorToken } from '../domain/publico/entregas';
import { verificarOffline } from '../domain/publico/offline';
import { gastar } from '../limits';
import { type Contexto, command } from './command';

const Token = z.object({ token: cadena().max(100) });

const sinDeca = () => new AppError('no_encontrado', 'El enlace no corresponde a ninguna DeCA. Compruebe que está completo.');

/** The DeCA behind a public token, or 404 (the adapter shows «documento no encontrado»). */
async function porToken(ctx: Services, token: string): Promise<DecaConRefs> {
  const row = await obtenerPorToken(ctx.db, token);
  if (!row) throw sinDeca();
  return row;
}

/**
 * A public page that counts as an open (the ficha, the PDF): its answer,
 * with the open to log (deduplicated and limited, see prepararApertura)
 * beside it, best-effort: a failed write, a held lock or a database out of
 * reach never keeps an inspector from the document (the answer waits for
 * the log at most ESPERA_APERTURA_MS). A counted open drops the DeCA's
 * cached copy, which shows the new count.
 */
function conApertura<T>(ctx: Contexto<'publico'>, row: DecaConRefs, recurso: Apertura['recurso'], valor: T): Plan<T> {
  const v = ctx.quien;
  const deps = { clock: ctx.clock, siteUrl: ctx.siteUrl, aperturasIp: ctx.limits.aperturasIp, vistas: ctx.caches.aperturas, soltar: (id: number) => ctx.caches.decas.invalidate(id) };
  return {
    valor,
    aparte: {
      preparar: () => prepararApertura(deps, row, { recurso, ip: v.ip, navegador: v.navegador || '(sin navegador)', robot: v.robot }),
      esperaMs: ESPERA_APERTURA_MS,
      alFallar: (err) => ctx.log.warn({ err, deca: row.id, recurso }, 'public open not logged'),
    },
  };
}

const NO_VERIFICADA =
  'No se ha podido verificar este documento: el código no corresponde a ninguna DeCA ni a datos firmados por un dispositivo de una cuenta. Pida al conductor que lo enseñe de nuevo o que muestre el PDF.';

export const verFichaCommand = command({
  nombre: 'ver_ficha',
  descripcion:
    'La ficha pública de una DeCA (la que abre el agente desde el QR); cuenta como descarga. Si la DeCA aún no ha llegado porque se emitió sin cobertura, los datos firmados por el dispositivo que trae el QR (`o`), verificados.',
  acceso: 'publico',
  entrada: Token.extend({ o: cadena().max(1000).optional() }),
  preparar: async (ctx, { token, o }): Promise<Plan<VistaFicha>> => {
    const row = await obtenerPorToken(ctx.db, token);
    if (row) {
      const ficha = presentFicha(row, await ultimoCambio(ctx.db, row), ctx.siteUrl, await entregasPublicas(ctx.db, row));
      return conApertura(ctx, row, 'ficha', { tipo: 'deca', ...ficha });
    }
    if (o === undefined) throw sinDeca();
    const offline = await verificarOffline(ctx.db, token, o, ctx.clock.now());
    if (!offline) throw new AppError('no_encontrado', NO_VERIFICADA);
    return { valor: { tipo: 'offline', offline } };
  },
});

export const verJustificanteCommand = command({
  nombre: 'ver_justificante',
  descripcion: 'La página pública que confirma un justificante de entrega (la de su QR): de qué DeCA y envío, si se entregó o se rechazó y cuándo; nunca la firma, las fotos ni quién firmó.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<JustificantePublico>> => {
    const j = await justificantePorToken(ctx.db, ctx.siteUrl, token);
    if (!j) throw new AppError('no_encontrado', 'El enlace no corresponde a ningún justificante de entrega. Compruebe que está completo.');
    return { valor: j };
  },
});

export const verConductorCommand = command({
  nombre: 'ver_conductor',
  descripcion: 'La página del conductor de una DeCA (QR grande); no cuenta como descarga.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<FichaPublica>> => {
    const row = await porToken(ctx, token);
    return { valor: presentFicha(row, await ultimoCambio(ctx.db, row), ctx.siteUrl, await entregasPublicas(ctx.db, row)) };
  },
});

export const pdfPublicoCommand = command({
  nombre: 'pdf_publico',
  descripcion: 'El PDF vigente de una DeCA por su URL pública; cuenta como descarga.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }) => {
    const row = await porToken(ctx, token);
    if (row.estado === 'pendiente') throw new AppError('pendiente', `La DeCA ${row.numero} aún no se ha emitido: todavía no tiene PDF.`);
    const v = await leerPdf(ctx, { accountId: row.account_id, entorno: row.entorno }, row);
    return conApertura(ctx, row, 'pdf', { numero: row.numero, ...v });
  },
});

export const qrPublicoCommand = command({
  nombre: 'qr_publico',
  descripcion: 'El QR (PNG) de una DeCA por su URL pública.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }) => {
    const row = await porToken(ctx, token);
    return { valor: { png: await renderQrPng(fichaUrl(ctx.siteUrl, row.token_publico)) } };
  },
});

export const manifiestoConductorCommand = command({
  nombre: 'manifiesto_conductor',
  descripcion: 'La DeCA de la página del conductor, para su manifiesto (añadir a la pantalla de inicio).',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }) => ({ valor: { deca: presentDecaPublica(await porToken(ctx, token), ctx.siteUrl) } }),
});

async function porEnlace(ctx: Services, token: string): Promise<{ row: DecaConRefs; solicitante: string }> {
  const r = await obtenerPorEnlace(ctx.db, token);
  if (!r) throw new AppError('no_encontrado', 'Este enlace para completar no existe, o el documento se borró.');
  return r;
}

export const abrirCompletarCommand = command({
  nombre: 'abrir_completar',
  descripcion: 'La primera página del enlace para completar (un robot que lo abre no cambia nada).',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<PasoCompletar>> => {
    const { row, solicitante } = await porEnlace(ctx, token);
    if (row.estado !== 'pendiente') return { valor: presentYaEmitida(row, ctx.siteUrl) };
    return { valor: presentCompletarInicio(row, solicitante, ctx.siteUrl) };
  },
});

/**
 * The other party's completion form, one step per post: `abrir` shows it
 * with the saved draft, `guardar` and `mas` keep a draft (and add a shipment
 * row), `enviar` validates with the same shared schemas and ready-to-issue
 * rules as the API and issues the DeCA (`deca.completado`, `deca.emitido`).
 * Only the other party's fields are taken: a post that sets any other field
 * of the DeCA (the issuer's data) is refused whole. With warnings (NIF or
 * plate check characters, an implausible load) `enviar` asks first, and
 * issues once the same warnings come back confirmed (`avisosConfirmados`).
 */
export const completarDecaCommand = command({
  nombre: 'completar_deca',
  descripcion: 'Un paso del formulario del enlace para completar: abrir, guardar borrador, añadir envío o enviar (emite la DeCA).',
  acceso: 'publico',
  entrada: Token.extend({
    accion: z.enum(['abrir', 'guardar', 'mas', 'enviar'], { error: 'Acción desconocida' }).default('abrir'),
    campos: z
      .array(z.tuple([z.string(), z.string()]))
      .max(5_000)
      .default([]),
    ajax: z.boolean().default(false),
    avisosConfirmados: z.string().max(100).optional(),
  }),
  preparar: async (ctx, { token, accion, campos, ajax, avisosConfirmados }): Promise<Plan<PasoCompletar>> => {
    const [porLink, porIp] = await Promise.all([gastar(ctx.limits.completarToken, token), gastar(ctx.limits.completarIp, ctx.quien.ip)]);
    const espera = porLink ?? porIp;
    if (espera !== null) {
      throw new AppError('demasiadas_peticiones', 'Demasiados intentos: espere unos minutos y vuelva a intentarlo.', { headers: { 'Retry-After': String(espera) } });
    }
    const { row, solicitante } = await porEnlace(ctx, token);
    if (row.estado !== 'pendiente') return { valor: presentYaEmitida(row, ctx.siteUrl) };
    const formulario = (paso: PasoFormulario) => presentCompletarFormulario(row, solicitante, ctx.siteUrl, paso);
    const borrador = await leerBorrador(ctx.db, row);
    if (accion === 'abrir') {
      const valores = valoresIniciales(row, borrador);
      return { valor: formulario({ valores, errores: {}, avisos: avisosFormulario(row, valores) }) };
    }
    const enviado = new URLSearchParams(campos);
    const valores = { ...valoresIniciales(row, borrador), ...valoresPermitidos(row, enviado) };
    const ajenos = camposAjenos(row, enviado);
    if (ajenos.length > 0) return { valor: formulario({ valores, errores: {}, avisos: [], rechazados: ajenos }) };
    const malos = erroresDeTexto(valores);
    if (Object.keys(malos).length > 0) return { valor: formulario({ valores, errores: malos, avisos: [] }) };
    // The draft is kept in the command's transaction; the answer goes out once it is written.
    const conBorrador = (paso: () => PasoCompletar): Plan<PasoCompletar> =>
      escritura(async (trx) => {
        await guardarBorrador(trx, row, valores, ctx.clock.now());
        return paso();
      });
    if (accion === 'guardar' || accion === 'mas') {
      return conBorrador(() => {
        if (ajax) return { tipo: 'guardado' };
        const aviso = accion === 'guardar' ? 'Borrador guardado: puede cerrar la página y volver con el mismo enlace.' : undefined;
        return formulario({ valores, errores: {}, avisos: avisosFormulario(row, valores), aviso, filasExtra: accion === 'mas' ? 1 : 0 });
      });
    }
    const r = validarFormulario(row, valores);
    if ('errores' in r) return conBorrador(() => formulario({ valores, errores: r.errores, avisos: r.avisos }));
    const huella = r.avisos.length > 0 ? huellaAvisos(r.avisos) : null;
    if (huella !== null && avisosConfirmados !== huella) return conBorrador(() => formulario({ valores, errores: {}, avisos: r.avisos, confirmar: huella }));
    // Issued in the command's transaction; its plan drops the DeCA's cached copy once committed.
    return mapPlan(await prepararCompletar(ctx, row, r.patch, r.enviados), (deca): PasoCompletar => ({ tipo: 'emitida', deca, solicitante }));
  },
});

export const verificarPdfCommand = command({
  nombre: 'verificar_pdf',
  descripcion: 'Comprueba si un PDF es una versión auténtica de una DeCA de este servicio, cuál, y si sigue vigente; o un justificante de entrega auténtico.',
  acceso: 'publico',
  entrada: z.object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().nonnegative(),
    esPdf: z.boolean(),
  }),
  preparar: async (ctx, f): Promise<Plan<AutenticidadVista>> => {
    const espera = await gastar(ctx.limits.verificarIp, ctx.quien.ip);
    if (espera !== null) {
      throw new AppError('demasiadas_peticiones', `Ha comprobado muchos archivos seguidos. Espere ${Math.ceil(espera / 60)} min y vuelva a probar.`, {
        headers: { 'Retry-After': String(espera) },
      });
    }
    if (f.bytes === 0) throw new AppError('validacion', 'El archivo está vacío: elija el PDF de la DeCA.', { campos: { pdf: 'Archivo vacío' } });
    if (!f.esPdf) throw new AppError('validacion', 'El archivo no es un PDF: elija el PDF de la DeCA tal como lo descargó.', { campos: { pdf: 'No es un PDF' } });
    const encontrada = await versionPorHuella(ctx.db, f.sha256);
    // Not a DeCA's version: perhaps a delivery's receipt (extension).
    const justificante = encontrada ? null : await justificantePorHuella(ctx.db, ctx.siteUrl, f.sha256);
    return { valor: presentAutenticidad({ sha256: f.sha256, encontrada }, ctx.siteUrl, justificante) };
  },
});

/** The consignee's page of «Firmar en su móvil»: what they sign for (opening it changes nothing). */
export const abrirFirmaRemotaCommand = command({
  nombre: 'abrir_firma_remota',
  descripcion: 'La página del enlace para firmar la entrega en el móvil del destinatario.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }) => ({ valor: await abrirFirmaRemota(ctx, token) }),
});

const ValorFormulario = cadena({ max: 200_000 }).max(200_000).optional();

/**
 * The consignee's post on their own phone: the delivery (or refusal) checked
 * with the API's schema and recorded as POST /decas/{id}/entregas records it,
 * the link spent in the same transaction. Limited per link and per address.
 */
export const firmarEntregaRemotaCommand = command({
  nombre: 'firmar_entrega_remota',
  descripcion: 'El destinatario firma (o rechaza) la entrega en su móvil por el enlace de 30 minutos.',
  acceso: 'publico',
  entrada: Token.extend({
    valores: z
      .object({
        resultado: ValorFormulario,
        receptor_nombre: ValorFormulario,
        receptor_documento: ValorFormulario,
        reservas: ValorFormulario,
        sin_reservas: ValorFormulario,
        motivo_rechazo: ValorFormulario,
        firma: ValorFormulario,
      })
      .default({}),
  }),
  preparar: async (ctx, { token, valores }): Promise<Plan<PasoFirmaRemota>> => {
    const [porLink, porIp] = await Promise.all([gastar(ctx.limits.firmaToken, token), gastar(ctx.limits.completarIp, ctx.quien.ip)]);
    const espera = porLink ?? porIp;
    if (espera !== null) {
      throw new AppError('demasiadas_peticiones', 'Demasiados intentos: espere unos minutos y vuelva a intentarlo.', { headers: { 'Retry-After': String(espera) } });
    }
    const limpios = Object.fromEntries(Object.entries(valores).filter(([, v]) => v !== undefined)) as ValoresFirmaRemota;
    return prepararFirmaDelDestinatario(ctx, token, limpios);
  },
});
