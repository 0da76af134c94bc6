import type { Aviso } from '../../shared/errors';
import { AppError } from '../../shared/errors';
import {
  ArchivarInput,
  type Cambio,
  CaminoQuery,
  ControlInput,
  ControlRegistrado,
  type Deca,
  DecaInput,
  type DecaList,
  DecaListQuery,
  DecaPatch,
  type DecaValidada,
  type Descarga,
  SustituirInput,
} from '../../shared/schemas/deca';
import { EftiQuery } from '../../shared/schemas/efti';
import { cadena } from '../../shared/schemas/envio';
import { z } from '../../shared/schemas/zod';
import { renderQrPng } from '../documents/qr';
import { mapPlan, type Plan } from '../domain/context';
import { encolarPedirDatos, prepararEnvio, prepararPedirDatos } from '../domain/correo/enviar';
import { prepararArchivo } from '../domain/decas/archivar';
import { documentosParaElCamino } from '../domain/decas/camino';
import { prepararControl } from '../domain/decas/control';
import { camposDesconocidos, creacionRepetida, prepararCreacion, problemasDeCreacion, validarDeca } from '../domain/decas/crear';
import { type Eliminada, prepararEliminacion } from '../domain/decas/eliminar';
import { prepararEmision } from '../domain/decas/emitir';
import { prepararFin } from '../domain/decas/fin';
import { leerPdf, listarCambios, listarDecas } from '../domain/decas/listar';
import { prepararModificacion } from '../domain/decas/modificar';
import { obtenerDeca } from '../domain/decas/queries';
import { prepararSustitucion } from '../domain/decas/sustituir';
import { fichaUrl } from '../domain/decas/urls';
import { verDeca } from '../domain/decas/ver';
import { leerDatasetEfti } from '../domain/efti/leer';
import { leerFotoDeDeca } from '../domain/fotos/unir';
import type { Repeticion } from '../domain/idempotencia';
import { presentCambio, presentDeca } from '../domain/presenters/deca';
import { listarDescargas } from '../domain/publico/descargas';
import { type Contexto, command } from './command';

/** `{id}` of the spec: the numeric id or the number `YYYY-NNNNNN` (anything else is a 404, never a 422). */
const Ref = z.object({ id: cadena().max(40).meta({ description: 'Id numérico o número AAAA-NNNNNN de la DeCA' }) });

/** Keys of a JSON object (which fields a PATCH sent: null or "" clears, absent keeps). */
function enviados(crudo: unknown): Set<string> {
  return new Set(crudo && typeof crudo === 'object' && !Array.isArray(crudo) ? Object.keys(crudo) : []);
}

/** A repeated request (same Idempotency-Key): the DeCA it acted on, as it stands now. */
async function decaRepetida(ctx: Contexto<'escritura'>, anterior: Repeticion): Promise<Deca> {
  return repetidaExistente(anterior, async (id) => presentDeca(await obtenerDeca(ctx.db, ctx.quien, String(id)), ctx.siteUrl));
}

/** What `leer` gives for the DeCA a repeated request acted on, or 404 saying it is gone. */
async function repetidaExistente<T>(anterior: Repeticion, leer: (decaId: number) => Promise<T>): Promise<T> {
  if (anterior.decaId === null) throw new AppError('no_encontrado', 'La DeCA de esta petición ya no existe.');
  try {
    return await leer(anterior.decaId);
  } catch (err) {
    if (err instanceof AppError && err.codigo === 'no_encontrado') {
      throw new AppError('no_encontrado', 'La DeCA de esta petición ya no existe (se borró cuando estaba pendiente). Use una clave nueva.');
    }
    throw err;
  }
}

/** The answer of POST /decas: validated only, or created (or found again by `ref_externa`). */
export type ResultadoCrear = { tipo: 'validada'; validada: DecaValidada } | { tipo: 'creada'; deca: Deca; avisos: Aviso[]; nueva: boolean };

export const validarDecaCommand = command({
  nombre: 'validar_deca',
  descripcion: 'Valida los datos de una DeCA sin guardar nada: qué falta para emitirla y los avisos.',
  acceso: 'escritura',
  entrada: DecaInput,
  completarErrores: (ctx, crudo, issues) => problemasDeCreacion(ctx.quien.cuenta, crudo, issues),
  preparar: async (ctx, input) => ({ valor: validarDeca(ctx.quien.cuenta, input, camposDesconocidos(ctx.crudo)) }),
});

export const crearDecaCommand = command({
  nombre: 'crear_deca',
  descripcion: 'Crea una DeCA y la emite (PDF, QR y URL), o la deja pendiente para que la otra parte complete sus datos.',
  acceso: 'escritura',
  entrada: DecaInput,
  completarErrores: (ctx, crudo, issues) => problemasDeCreacion(ctx.quien.cuenta, crudo, issues),
  idempotencia: {
    aplica: (input) => !input.solo_validar,
    // The same key, or the same ref_externa (with other data, an aviso says so): that DeCA as it is now.
    repetir: async (ctx, anterior, input): Promise<ResultadoCrear> => ({
      tipo: 'creada',
      ...(await repetidaExistente(anterior, (id) => creacionRepetida(ctx, ctx.quien, id, input, anterior.porRef))),
    }),
    creacion: (input) => ({ ref: input.ref_externa ?? null }),
  },
  preparar: async (ctx, input): Promise<Plan<ResultadoCrear>> => {
    const desconocidos = camposDesconocidos(ctx.crudo);
    if (input.solo_validar) return { valor: { tipo: 'validada', validada: validarDeca(ctx.quien.cuenta, input, desconocidos) } };
    const actor = ctx.quien;
    const plan = mapPlan(await prepararCreacion(ctx, actor, input, { desconocidos, cliente: ctx.claveCliente }), (r): ResultadoCrear => ({ tipo: 'creada', ...r }));
    const pedirA = !input.emitir ? input.pedir_datos_email : undefined;
    if (!pedirA || 'valor' in plan) return plan;
    // The request for the other party's data goes out with the DeCA, in its transaction.
    return {
      aplicar: async (trx) => {
        const e = await plan.aplicar(trx);
        if (e.valor.tipo === 'creada') await encolarPedirDatos(trx, ctx, actor, e.valor.deca.id, pedirA);
        return e;
      },
    };
  },
});

export const documentosCaminoCommand = command({
  nombre: 'documentos_camino',
  descripcion: 'Las DeCA emitidas con fecha de transporte de 7 días atrás a 7 adelante (fecha del servidor), con PDF y QR, para llevarlas en el dispositivo sin cobertura.',
  acceso: 'lectura',
  entrada: CaminoQuery,
  preparar: async (ctx, { tengo }) => {
    const ya = new Map((tengo ? tengo.split(',') : []).map((p) => p.split('.').map(Number) as [number, number]));
    return { valor: await documentosParaElCamino(ctx, ctx.quien, ya) };
  },
});

export const verDecaCommand = command({
  nombre: 'ver_deca',
  descripcion: 'Una DeCA con sus envíos, su estado y sus URL.',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }) => ({ valor: await verDeca(ctx, ctx.quien, id) }),
});

export const listarDecasCommand = command({
  nombre: 'listar_decas',
  descripcion: 'Lista de DeCA, la más reciente primero (con desde/hasta, por fecha de transporte; con modificado_desde, por su último cambio), con filtros y cursor «siguiente».',
  acceso: 'lectura',
  entrada: DecaListQuery,
  preparar: async (ctx, q): Promise<Plan<DecaList>> => {
    const { rows, siguiente } = await listarDecas(ctx.db, ctx.quien, q);
    return { valor: { decas: rows.map((r) => presentDeca(r, ctx.siteUrl)), siguiente } };
  },
});

const repetirDeca = { repetir: decaRepetida };

export const modificarDecaCommand = command({
  nombre: 'modificar_deca',
  descripcion: 'Cambia datos de una DeCA. Pendiente: se cambian (y con emitir, se emite). Emitida: método 1, con «motivo»; misma URL y QR, versión nueva.',
  acceso: 'escritura',
  entrada: DecaPatch.safeExtend(Ref.shape),
  idempotencia: repetirDeca,
  preparar: (ctx, { id, ...cambios }) => {
    const sent = enviados(ctx.crudo);
    sent.delete('id');
    return prepararModificacion(ctx, ctx.quien, id, cambios, sent);
  },
});

export const emitirDecaCommand = command({
  nombre: 'emitir_deca',
  descripcion: 'Emite una DeCA pendiente cuyos datos están completos.',
  acceso: 'escritura',
  entrada: Ref,
  idempotencia: repetirDeca,
  preparar: (ctx, { id }) => prepararEmision(ctx, ctx.quien, id),
});

export const sustituirDecaCommand = command({
  nombre: 'sustituir_deca',
  descripcion: 'Método 2: crea una DeCA nueva (nueva URL y QR) con los cambios y marca la anterior como sustituida. «motivo» obligatorio.',
  acceso: 'escritura',
  permiso: 'gestion',
  entrada: SustituirInput.safeExtend(Ref.shape),
  idempotencia: repetirDeca,
  preparar: (ctx, { id, ...cambios }) => {
    const sent = enviados(ctx.crudo);
    sent.delete('id');
    return prepararSustitucion(ctx, ctx.quien, id, cambios, sent);
  },
});

export const finServicioCommand = command({
  nombre: 'fin_servicio',
  descripcion: 'Marca el fin del servicio de una DeCA emitida.',
  acceso: 'escritura',
  entrada: Ref,
  idempotencia: repetirDeca,
  preparar: (ctx, { id }) => prepararFin(ctx, ctx.quien, id),
});

export const controlCarreteraCommand = command({
  nombre: 'control_carretera',
  descripcion:
    'Anota el código numérico que un agente dio al conductor en un control en carretera (extensión): queda en el historial y sale el evento deca.control; después hay que enviar el PDF/A a la sede electrónica (sede_url) con ese código.',
  acceso: 'escritura',
  entrada: ControlInput.extend(Ref.shape),
  idempotencia: { repetir: async (_ctx, anterior) => ControlRegistrado.parse(anterior.respuesta) },
  preparar: async (ctx, { id, codigo }): Promise<Plan<ControlRegistrado>> => {
    const sede_url = ctx.sedeControlUrl;
    // A repeat gets the whole first answer, sede_url included.
    return mapPlan(
      await prepararControl(ctx, ctx.quien, id, codigo),
      (hecho) => ({ ...hecho, sede_url }),
      (hecho, registro) => ({ ...registro, respuesta: { ...hecho, sede_url } }),
    );
  },
});

export const archivarDecaCommand = command({
  nombre: 'archivar_deca',
  descripcion: 'Archiva (archivado true) o desarchiva (false) una DeCA, en cualquier estado.',
  acceso: 'escritura',
  permiso: 'gestion',
  entrada: ArchivarInput.extend(Ref.shape),
  idempotencia: repetirDeca,
  preparar: (ctx, { id, archivado }) => prepararArchivo(ctx, ctx.quien, id, archivado),
});

export const eliminarDecaCommand = command({
  nombre: 'eliminar_deca',
  descripcion: 'Borra una DeCA pendiente (las emitidas no se borran: se conservan un año).',
  acceso: 'escritura',
  entrada: Ref,
  idempotencia: {
    // The stored answer is what a repeat gets: the same body as the first (IETF Idempotency-Key draft).
    repetir: async (_ctx, anterior) => anterior.respuesta as Eliminada,
  },
  preparar: (ctx, { id }) => prepararEliminacion(ctx, ctx.quien, id),
});

export const historialDecaCommand = command({
  nombre: 'historial_deca',
  descripcion: 'El historial de cambios de una DeCA: versión, motivo, quién y qué cambió.',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<{ cambios: Cambio[] }>> => ({ valor: { cambios: (await listarCambios(ctx.db, ctx.quien, id)).map(presentCambio) } }),
});

export const descargasDecaCommand = command({
  nombre: 'descargas_deca',
  descripcion: 'Cada apertura de la URL pública o del QR de una DeCA: fecha, IP y navegador.',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<{ descargas: Descarga[] }>> => ({ valor: { descargas: await listarDescargas(ctx.db, ctx.quien, id) } }),
});

export const pdfDecaCommand = command({
  nombre: 'pdf_deca',
  descripcion: 'El PDF de la versión vigente de una DeCA emitida (no cuenta como descarga pública).',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }) => {
    const deca = await obtenerDeca(ctx.db, ctx.quien, id);
    const v = await leerPdf(ctx, ctx.quien, deca);
    return { valor: { numero: deca.numero, ...v } };
  },
});

export const eftiDecaCommand = command({
  nombre: 'efti_deca',
  descripcion: 'Una versión emitida de una DeCA (la vigente por defecto) como conjunto de datos eFTI: el XML «consignment» del esquema común de referencia, con su UIL.',
  acceso: 'lectura',
  entrada: Ref.extend(EftiQuery.shape),
  preparar: async (ctx, { id, version }) => ({ valor: await leerDatasetEfti(ctx, ctx.quien, id, version) }),
});

export const fotoDecaCommand = command({
  nombre: 'foto_deca',
  descripcion: 'La foto del albarán de la que se hizo una DeCA (extensión), tal como llegó a POST /fotos: solo para la cuenta, nunca en las páginas públicas.',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }) => ({ valor: await leerFotoDeDeca(ctx, ctx.quien, id) }),
});

export const qrDecaCommand = command({
  nombre: 'qr_deca',
  descripcion: 'El código QR (PNG) que lleva a la ficha pública de una DeCA.',
  acceso: 'lectura',
  entrada: Ref,
  preparar: async (ctx, { id }) => {
    const deca = await obtenerDeca(ctx.db, ctx.quien, id);
    return { valor: { numero: deca.numero, png: await renderQrPng(fichaUrl(ctx.siteUrl, deca.token_publico)) } };
  },
});

const Email = z.email('Correo electrónico no válido').max(254);

export const pedirDatosCommand = command({
  nombre: 'pedir_datos',
  descripcion: 'El enlace para que la otra parte complete sus datos de una DeCA pendiente; se le envía por correo si se da «email».',
  acceso: 'escritura',
  entrada: Ref.extend({ email: Email.optional() }),
  preparar: (ctx, { id, email }) => prepararPedirDatos(ctx, ctx.quien, id, email ?? null),
});

export const enviarDecaCommand = command({
  nombre: 'enviar_deca',
  descripcion: 'Envía por correo una DeCA emitida (PDF adjunto) y devuelve el texto para la aplicación de mensajería del conductor.',
  acceso: 'escritura',
  entrada: Ref.extend({ email: Email }),
  preparar: (ctx, { id, email }) => prepararEnvio(ctx, ctx.quien, id, email),
});
