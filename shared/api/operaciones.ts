/**
 * The operation table: every operation of the API once, with what it takes,
 * answers and refuses, and the MCP tool it is. Method and path are in
 * `rutas.ts` under the same name. From this table, each in one loop, the
 * server mounts its REST routes (server/http/routes/api.ts), writes the
 * OpenAPI document (server/http/openapi.ts) and lists its MCP tools
 * (server/http/mcp.ts); the app calls `llamar(nombre, entrada)` typed by it
 * (client/data/api.ts). What only the server knows — which command runs,
 * its access level and Idempotency-Key support, a file upload's parsing —
 * stays in the server, which the compiler makes name a command for every entry.
 *
 * A new endpoint is an entry here, its path in `rutas.ts`, and its command.
 */

import type { CODIGO_STATUS } from '../errors';
import {
  AgendaEliminada,
  AgendaEmpresa,
  AgendaEmpresaInput,
  AgendaEmpresaPatch,
  AgendaFusionInput,
  AgendaList,
  AgendaLugar,
  AgendaLugarInput,
  AgendaLugarPatch,
  AgendaQuery,
  AgendaVehiculo,
  AgendaVehiculoInput,
  AgendaVehiculoPatch,
  TipoAgenda,
} from '../schemas/agenda';
import { CuentaResponse } from '../schemas/cuenta';
import {
  ArchivarInput,
  CambiosList,
  CaminoQuery,
  CamposDecaInput,
  ControlInput,
  ControlRegistrado,
  comprobarCodigosPostales,
  DatosPedidos,
  DecaCreada,
  DecaEliminada,
  DecaEnviada,
  DecaInput,
  DecaList,
  DecaListQuery,
  DecaPatch,
  DecaRespuesta,
  DecaValidada,
  DescargasList,
  DocumentosCamino,
  EnviarInput,
  PedirDatosInput,
  SustituirInput,
} from '../schemas/deca';
import { AccesosEftiList, AccesosEftiQuery, EftiQuery } from '../schemas/efti';
import { EntregaCreada, EntregaInput, EntregasList, FirmaRemotaInput, FirmaRemotaRespuesta, LIMITE_ENTREGA_KB } from '../schemas/entrega';
import { FotoBase64Input, FotoLeida } from '../schemas/fotos';
import { ClaveIdempotencia } from '../schemas/idempotencia';
import { Importacion, ImportarQuery } from '../schemas/importar';
import { EntregaList, EntregaResultado, Webhook, WebhookCreado, WebhookEliminado, WebhookInput, WebhookList, WebhookPatch } from '../schemas/webhook';
import { z } from '../schemas/zod';
import type { NombreOperacion, ParametrosDeRuta, RUTAS } from './rutas';

/** The response headers the document declares (server/http/openapi.ts describes each). */
export type NombreCabecera =
  | 'X-Request-Id'
  | 'RateLimit-Limit'
  | 'RateLimit-Remaining'
  | 'RateLimit-Reset'
  | 'RateLimit'
  | 'RateLimit-Policy'
  | 'Retry-After'
  | 'Idempotent-Replayed'
  | 'Location'
  | 'ETag'
  | 'Content-Disposition'
  | 'WWW-Authenticate'
  | 'Efti-Gate-Id'
  | 'Efti-Platform-Id'
  | 'Efti-Dataset-Id'
  | 'Efti-Subsets';

/**
 * How an operation answers when it succeeds. `cabeceras`: the headers of
 * its own this answer carries (true: always; false: sometimes), besides those
 * every answer carries (X-Request-Id, RateLimit) and `Idempotent-Replayed`
 * of the operations that take an `Idempotency-Key`.
 */
export type Exito = { estado: number; descripcion: string; cabeceras?: Partial<Record<NombreCabecera, boolean>> } & (
  | { json: z.ZodType }
  | { tipo: 'application/pdf' | 'image/png' | 'image/*' | 'text/csv' | 'application/xml' }
);

/** How the body of a request is sent: JSON, or a file (multipart form field, or the raw bytes). */
export type Cuerpo = { json: z.ZodType; ejemplo?: unknown } | { archivo: string; tipos: string[]; json?: z.ZodType; descripcion: string };

/** MCP's tool annotations (the SDK's `ToolAnnotations`, without the title: the tool's `titulo` is it). */
export interface AnotacionesMcp {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The MCP tool of an operation: named as the command it runs. */
export interface HerramientaMcp {
  /** When the tool runs another command than its operation's (`validar_deca` is `crear_deca` with `solo_validar`). */
  comando?: string;
  titulo: string;
  /** For a language model: what it does, when to use it, what it returns, what to ask the user first. */
  descripcion: string;
  /** In the read-only set of the spec (a read-only key lists and calls only these). */
  lectura: boolean;
  /** The tool's arguments, when they are not the command's input. */
  entrada?: z.ZodObject;
  /** What the tool returns, when it is not the operation's first JSON answer. */
  salida?: z.ZodType;
  anotaciones: AnotacionesMcp;
}

export type Etiqueta = 'DeCA' | 'Cuenta' | 'Agenda' | 'Importación' | 'Fotos' | 'Webhooks';

/**
 * One operation: the command it runs (by name; the operation's own name when
 * absent), what it takes (body, query; path parameters are read by the
 * command's schema), what it answers, which 409 codes of its state machine it
 * can return, and its MCP tools.
 */
export interface Operacion {
  comando?: string;
  resumen: string;
  etiqueta: Etiqueta;
  cuerpo?: Cuerpo;
  consulta?: z.ZodObject;
  /** Fields the path fixes for the command (the agenda's `tipo`). */
  fijo?: Record<string, string>;
  exito: readonly Exito[];
  /** The command's result answered inside `{ deca }`, at every door. */
  envoltorio?: 'deca';
  conflictos?: readonly (keyof typeof CODIGO_STATUS)[];
  /** Path parameters other than a DeCA's or webhook's `id`, with their description. */
  parametros?: Record<string, string>;
  extension?: true;
  /** The largest JSON body it takes, in KB (256 when not said); a file upload has its own limit. */
  limiteKB?: number;
  herramientas?: readonly HerramientaMcp[];
}

const json = <S extends z.ZodType>(schema: S, descripcion: string, estado = 200, cabeceras?: Exito['cabeceras']) => ({ estado, descripcion, json: schema, ...(cabeceras ? { cabeceras } : {}) });

/** The body of a POST that takes no fields: `{}` (the spec: every POST carries a body, `{}` at least). */
export const VACIO = { json: z.object({}).meta({ id: 'Vacio', description: 'Sin campos: envíe `{}` (toda petición POST lleva un cuerpo)' }), ejemplo: {} };

const DE_DECA = ['emitido', 'pendiente', 'sustituido', 'servicio_finalizado', 'en_curso'] as const;

const CONSULTA: AnotacionesMcp = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const EJEMPLO_DECA = {
  ref_externa: 'PED-2026-0042',
  fecha_transporte: '2026-11-25',
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
  matricula: '1234 BCD',
  matricula_remolque: 'R-5678-BBC',
  conductor_nombre: 'José Ángel Muñoz',
  envios: [{ origen: 'Lleida', destino: 'Mercamálaga, Málaga', naturaleza: 'Fruta de hueso en palés', peso: 18250, unidad: 'kg' }],
  emitir: true,
};

/** crear_deca's own argument at the MCP door: REST's Idempotency-Key, under the header's own rule. */
export const ClaveIdempotenciaMcp = ClaveIdempotencia.optional().meta({
  description: 'Clave única de este intento de creación (p. ej. un UUID; de 1 a 255 caracteres ASCII visibles). Si reintenta con la misma clave, recibe la misma DeCA en vez de crear otra.',
});

const BUSCAR_AGENDA: HerramientaMcp = {
  titulo: 'Buscar en la agenda',
  descripcion:
    'Busca en la agenda de la cuenta empresas (tipo «empresas»: nombre, NIF, domicilio), vehículos («vehiculos»: matrícula, remolque, conductor) o lugares («lugares») ya usados en DeCA anteriores, por cualquier parte del texto y sin importar acentos. Úsela para completar los datos de una DeCA a partir de lo que diga el usuario («la de siempre a Mercabarna») en vez de inventarlos. No devuelve las empresas cuyo NIF tiene el carácter de control mal (con con_avisos: "1" salen, con sus avisos): no las proponga.',
  lectura: true,
  entrada: AgendaQuery.extend({ tipo: TipoAgenda }),
  anotaciones: CONSULTA,
};

/**
 * The operations of one kind of the agenda; the MCP tool searches all three and is listed with the first.
 * Changing, deleting and merging entries are extensions (the spec has only search and save).
 */
function agenda<T extends z.infer<typeof TipoAgenda>, E extends z.ZodType, P extends z.ZodType, S extends z.ZodType>(tipo: T, nombre: string, entrada: E, cambio: P, salida: S, mcp: boolean) {
  const una = nombre.replace(/s$/, '').replace(/e$/, '');
  const parametros = { id: 'Id de la entrada de la agenda (`id` de la búsqueda)' };
  return {
    buscar: {
      comando: 'buscar_agenda',
      resumen: `Buscar ${nombre} en la agenda`,
      etiqueta: 'Agenda',
      consulta: AgendaQuery,
      fijo: { tipo },
      exito: [json(AgendaList, `${nombre[0]!.toUpperCase()}${nombre.slice(1)} de la agenda, las más usadas primero`)],
      ...(mcp ? { herramientas: [BUSCAR_AGENDA] } : {}),
    },
    guardar: {
      comando: 'guardar_agenda',
      resumen: `Guardar ${una} en la agenda`,
      etiqueta: 'Agenda',
      cuerpo: { json: entrada },
      limiteKB: 8,
      fijo: { tipo },
      exito: [json(z.object({ entrada: salida }), 'La entrada guardada')],
    },
    cambiar: {
      comando: 'cambiar_agenda',
      resumen: `Cambiar ${una} en la agenda`,
      etiqueta: 'Agenda',
      cuerpo: { json: cambio },
      limiteKB: 8,
      fijo: { tipo },
      parametros,
      exito: [json(z.object({ entrada: salida }), 'La entrada cambiada (sin `avisos` si se corrigió su NIF)')],
      extension: true,
    },
    eliminar: {
      comando: 'eliminar_agenda',
      resumen: `Borrar ${una} de la agenda`,
      etiqueta: 'Agenda',
      fijo: { tipo },
      parametros,
      exito: [json(AgendaEliminada, 'Borrada')],
      extension: true,
    },
    fusionar: {
      comando: 'fusionar_agenda',
      resumen: `Fusionar dos ${nombre} de la agenda`,
      etiqueta: 'Agenda',
      cuerpo: { json: AgendaFusionInput, ejemplo: { otra: 42 } },
      limiteKB: 8,
      fijo: { tipo },
      parametros,
      exito: [json(z.object({ entrada: salida }), 'La entrada que queda, con sus datos y los usos de las dos')],
      extension: true,
    },
  } as const satisfies Record<string, Operacion>;
}
const EMPRESAS = agenda('empresas', 'empresas', AgendaEmpresaInput, AgendaEmpresaPatch, AgendaEmpresa, true);
const VEHICULOS = agenda('vehiculos', 'vehículos', AgendaVehiculoInput, AgendaVehiculoPatch, AgendaVehiculo, false);
const LUGARES = agenda('lugares', 'lugares', AgendaLugarInput, AgendaLugarPatch, AgendaLugar, false);

/** Every operation under `/api/v1` (and `/demo/api/v1`), in the spec's order, extensions marked. */
export const OPERACIONES = {
  crear_deca: {
    resumen: 'Crear (y emitir) una DeCA',
    etiqueta: 'DeCA',
    cuerpo: { json: DecaInput, ejemplo: EJEMPLO_DECA },
    exito: [
      json(DecaCreada, 'Creada (y emitida si `emitir` y está completa); cabecera `Location`', 201, { Location: true }),
      json(z.union([DecaCreada, DecaValidada]), 'Repetición de una petición con la misma `Idempotency-Key` o `ref_externa` (`Idempotent-Replayed: true`, con `Location`), o `solo_validar`', 200, {
        Location: false,
      }),
    ],
    conflictos: ['ref_externa_usada', 'cuenta_incompleta', 'cuenta_sin_confirmar'],
    herramientas: [
      {
        titulo: 'Validar una DeCA',
        comando: 'validar_deca',
        descripcion:
          'Comprueba los datos de una DeCA sin guardar nada y devuelve qué faltaría para emitirla y los avisos. Acepta lo mismo que crear_deca. Úsela para saber qué preguntar al usuario antes de crear.',
        lectura: false,
        salida: DecaValidada,
        anotaciones: CONSULTA,
      },
      {
        titulo: 'Crear una DeCA',
        descripcion:
          'Crea un documento de control administrativo (DeCA, Orden FOM/2861/2012) y, con emitir: true (por defecto), lo emite: número, PDF, QR y ficha pública que el conductor enseña en un control. Los datos de la empresa de la cuenta se ponen solos; hacen falta los de la otra parte (nombre y NIF), la fecha de transporte, la matrícula y al menos un envío (origen, destino, naturaleza de la mercancía y peso). Si faltan datos de la otra parte, cree con emitir: false y pedir_datos_email para que los complete ella. Opcionales para eFTI (no se imprimen): código postal, municipio, provincia y país de cada parte (cargador_cp, transp_pais…), país de las matrículas (matricula_pais, remolque_pais; ES se deduce si la matrícula es española) y destinatario de cada envío (envios[].destinatario_nombre, destinatario_nif). Pregunte al usuario lo que no sepa en vez de inventarlo. Envíe siempre clave_idempotencia: si reintenta tras un error de red con la misma clave, recibe la misma DeCA y no se crea otra. Devuelve {deca, avisos}.',
        lectura: false,
        entrada: CamposDecaInput.omit({ solo_validar: true }).extend({ clave_idempotencia: ClaveIdempotenciaMcp }).superRefine(comprobarCodigosPostales),
        salida: DecaCreada,
        anotaciones: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
    ],
  },
  listar_decas: {
    resumen: 'Listar DeCA',
    etiqueta: 'DeCA',
    consulta: DecaListQuery,
    exito: [json(DecaList, 'Una página de DeCA; `siguiente` lleva a la próxima')],
    herramientas: [
      {
        titulo: 'Listar DeCA',
        descripcion:
          'Lista las DeCA de la cuenta, la más reciente primero (con desde/hasta, por fecha de transporte; con modificado_desde, por su último cambio), con filtros por estado (pendiente, emitido, sustituido), fechas de transporte (desde/hasta, AAAA-MM-DD), matrícula entera (matricula) o cualquier parte de ella (matricula_contiene), ref_externa, archivadas o texto libre (q: parte del número, referencias, empresas, conductor, matrículas o lugares y mercancía). Devuelve {decas, siguiente}: si «siguiente» no es null, páselo como despues_de, con los mismos filtros, para la página siguiente.',
        lectura: true,
        anotaciones: CONSULTA,
      },
    ],
  },
  ver_deca: {
    resumen: 'Ver una DeCA',
    etiqueta: 'DeCA',
    envoltorio: 'deca',
    exito: [json(DecaRespuesta, 'La DeCA')],
    herramientas: [
      {
        titulo: 'Ver una DeCA',
        descripcion:
          'Devuelve una DeCA completa por su id numérico o su número (AAAA-NNNNNN): partes, vehículo, envíos, estado, versión y URL (ficha pública, PDF, QR). Úsela para comprobar datos antes de modificar, emitir o enviar.',
        lectura: true,
        anotaciones: CONSULTA,
      },
    ],
  },
  modificar_deca: {
    resumen: 'Modificar una DeCA (método 1)',
    etiqueta: 'DeCA',
    cuerpo: { json: DecaPatch },
    envoltorio: 'deca',
    exito: [json(DecaRespuesta, 'La DeCA modificada (nueva versión si estaba emitida)')],
    conflictos: [...DE_DECA, 'sin_cambios', 'conflicto'],
    herramientas: [
      {
        titulo: 'Modificar una DeCA',
        descripcion:
          'Cambia datos de una DeCA (solo los campos que envíe; null o "" borra un campo opcional). Pendiente: se cambian y, con emitir: true, se emite. Emitida: hace falta «motivo»; conserva número, URL y QR y crea una versión nueva. Para cambiar de vehículo o de partes de forma que deba ser otro documento, use sustituir_deca. Devuelve {deca}.',
        lectura: false,
        anotaciones: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      },
    ],
  },
  eliminar_deca: { resumen: 'Eliminar una DeCA pendiente', etiqueta: 'DeCA', exito: [json(DecaEliminada, 'Eliminada')], conflictos: ['emitido', 'sustituido'] },
  emitir_deca: {
    resumen: 'Emitir una DeCA pendiente',
    etiqueta: 'DeCA',
    limiteKB: 16,
    cuerpo: VACIO,
    envoltorio: 'deca',
    exito: [json(DecaRespuesta, 'Emitida: número, PDF y QR')],
    conflictos: ['emitido', 'sustituido', 'cuenta_incompleta', 'cuenta_sin_confirmar'],
    herramientas: [
      {
        titulo: 'Emitir una DeCA',
        descripcion: 'Emite una DeCA pendiente cuyos datos ya están completos: le da PDF, QR y ficha pública. Si faltan datos, el error dice cuáles (campos). Devuelve {deca}.',
        lectura: false,
        anotaciones: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
    ],
  },
  sustituir_deca: {
    resumen: 'Sustituir una DeCA (método 2)',
    etiqueta: 'DeCA',
    cuerpo: { json: SustituirInput },
    envoltorio: 'deca',
    exito: [json(DecaRespuesta, 'La DeCA nueva, con otro número')],
    conflictos: [...DE_DECA],
    herramientas: [
      {
        titulo: 'Sustituir una DeCA',
        descripcion:
          'Crea una DeCA nueva (número, URL y QR nuevos) con los cambios dados y marca la anterior como sustituida, que deja de valer. «motivo» es obligatorio. Confirme con el usuario antes: no se puede deshacer. Devuelve {deca} con la nueva.',
        lectura: false,
        anotaciones: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      },
    ],
  },
  fin_servicio: {
    resumen: 'Marcar el fin del servicio',
    etiqueta: 'DeCA',
    limiteKB: 16,
    cuerpo: VACIO,
    envoltorio: 'deca',
    exito: [json(DecaRespuesta, 'La DeCA con `fin_servicio_at`')],
    conflictos: ['pendiente', 'sustituido', 'servicio_finalizado'],
    herramientas: [
      {
        titulo: 'Finalizar el servicio',
        descripcion: 'Marca que el transporte de una DeCA emitida terminó (fin del servicio); queda en su historial. Devuelve {deca}.',
        lectura: false,
        anotaciones: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
    ],
  },
  archivar_deca: { resumen: 'Archivar o desarchivar', etiqueta: 'DeCA', limiteKB: 16, cuerpo: { json: ArchivarInput }, envoltorio: 'deca', exito: [json(DecaRespuesta, 'La DeCA con `archivado`')] },
  historial_deca: {
    resumen: 'Historial de cambios',
    etiqueta: 'DeCA',
    exito: [json(CambiosList, 'Cada cambio con su autor, canal y campos (antes → después)')],
    herramientas: [
      {
        titulo: 'Historial de una DeCA',
        descripcion: 'Devuelve los cambios de una DeCA, del primero al último: versión, tipo de cambio, motivo, quién lo hizo, por qué canal y qué campos cambiaron (antes y después).',
        lectura: true,
        anotaciones: CONSULTA,
      },
    ],
  },
  descargas_deca: {
    resumen: 'Aperturas de la ficha pública',
    etiqueta: 'DeCA',
    exito: [json(DescargasList, 'Quién abrió la ficha, el PDF o el QR, sin robots')],
    herramientas: [
      {
        titulo: 'Aperturas de una DeCA',
        descripcion: 'Devuelve cada vez que alguien (por ejemplo un inspector con el QR) abrió la ficha pública de una DeCA: fecha, IP y navegador.',
        lectura: true,
        anotaciones: CONSULTA,
      },
    ],
  },
  pdf_deca: {
    resumen: 'PDF de la DeCA',
    etiqueta: 'DeCA',
    exito: [{ estado: 200, descripcion: 'El PDF/A de la última versión, sellado; `ETag` = su SHA-256', tipo: 'application/pdf', cabeceras: { ETag: true, 'Content-Disposition': true } }],
    conflictos: ['pendiente'],
  },
  efti_deca: {
    resumen: 'La DeCA como conjunto de datos eFTI (XML)',
    etiqueta: 'DeCA',
    consulta: EftiQuery,
    exito: [
      {
        estado: 200,
        descripcion:
          'Una versión emitida de la DeCA (la vigente, o la de `version`) como conjunto de datos eFTI (Reglamento (UE) 2020/1056): el elemento `consignment` del esquema `consignment-common.xsd` de la implementación de referencia de la UE, escrito con lo que imprimió el PDF de esa versión. Su UIL va en las cabeceras `Efti-Gate-Id`, `Efti-Platform-Id` y `Efti-Dataset-Id`: el mismo en todas las versiones de la DeCA y en las DeCA que la sustituyen. Qué dato va en qué elemento: docs/efti.md',
        tipo: 'application/xml',
        cabeceras: { 'Efti-Gate-Id': true, 'Efti-Platform-Id': true, 'Efti-Dataset-Id': true, 'Efti-Subsets': true, ETag: true, 'Content-Disposition': true },
      },
    ],
    conflictos: ['pendiente'],
    extension: true,
  },
  qr_deca: {
    resumen: 'QR de la DeCA',
    etiqueta: 'DeCA',
    exito: [{ estado: 200, descripcion: 'El QR de la ficha pública, en PNG', tipo: 'image/png', cabeceras: { 'Content-Disposition': true } }],
    conflictos: ['pendiente'],
  },
  foto_deca: {
    resumen: 'Foto del albarán de la DeCA',
    etiqueta: 'Fotos',
    exito: [
      {
        estado: 200,
        descripcion:
          'La foto del albarán con la que se creó la DeCA (`foto_id` de POST /fotos), tal como llegó, con su tipo (JPEG, PNG, WebP o HEIF); `ETag` = su SHA-256. Solo con la clave o la sesión de la cuenta: nunca sale en la ficha pública. 404 si la DeCA no se hizo con una foto',
        tipo: 'image/*',
        cabeceras: { ETag: true, 'Content-Disposition': true },
      },
    ],
    extension: true,
  },
  pedir_datos: {
    resumen: 'Pedir sus datos a la otra parte',
    etiqueta: 'DeCA',
    limiteKB: 16,
    cuerpo: { json: PedirDatosInput },
    exito: [json(DatosPedidos, 'El enlace para completar (y el correo, si se dio)')],
    conflictos: ['emitido', 'sustituido'],
    extension: true,
    herramientas: [
      {
        titulo: 'Pedir datos a la otra parte',
        descripcion:
          'Para una DeCA pendiente: devuelve el enlace con el que la otra parte completa sus datos y, si se da «email», se lo envía por correo. Cuando los complete, la DeCA se emite. Confirme la dirección con el usuario antes.',
        lectura: false,
        anotaciones: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
    ],
  },
  enviar_deca: {
    resumen: 'Enviar la DeCA por correo',
    etiqueta: 'DeCA',
    limiteKB: 16,
    cuerpo: { json: EnviarInput },
    exito: [json(DecaEnviada, 'Correo encolado con el PDF, y el texto para el conductor')],
    conflictos: ['pendiente'],
    extension: true,
    herramientas: [
      {
        titulo: 'Enviar una DeCA por correo',
        descripcion:
          'Envía por correo una DeCA emitida (con el PDF) a la dirección dada y devuelve el texto y el enlace para mandarla al conductor por su aplicación de mensajería (whatsapp_url). Confirme la dirección con el usuario antes.',
        lectura: false,
        anotaciones: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      },
    ],
  },
  control_carretera: {
    resumen: 'Anotar un control en carretera',
    etiqueta: 'DeCA',
    limiteKB: 16,
    cuerpo: { json: ControlInput },
    exito: [json(ControlRegistrado, 'El control anotado y dónde enviar el PDF/A')],
    conflictos: ['pendiente'],
    extension: true,
  },
  entregar_deca: {
    resumen: 'Anotar la entrega de un envío (o su rechazo)',
    etiqueta: 'DeCA',
    limiteKB: LIMITE_ENTREGA_KB,
    cuerpo: { json: EntregaInput },
    exito: [json(EntregaCreada, 'La entrega anotada; `avisos` si el DNI o NIE no cuadra')],
    conflictos: ['pendiente', 'sustituido', 'entregado'],
    extension: true,
  },
  ver_entregas: {
    resumen: 'Entregas de una DeCA',
    etiqueta: 'DeCA',
    exito: [json(EntregasList, 'Cada entrega o rechazo anotado, del primero al último')],
    extension: true,
    herramientas: [
      {
        titulo: 'Entregas de una DeCA',
        descripcion:
          'Devuelve las entregas anotadas de una DeCA (o de cada envío): si se entregó o se rechazó, a quién, cuándo (hora del teléfono), con qué reservas o por qué motivo, cuántas fotos y el enlace al justificante.',
        lectura: true,
        anotaciones: CONSULTA,
      },
    ],
  },
  pdf_entrega: {
    resumen: 'Justificante de entrega (PDF)',
    etiqueta: 'DeCA',
    parametros: { n: 'Número de la entrega en su DeCA (`n`, 1 la primera)' },
    exito: [
      {
        estado: 200,
        descripcion: 'El justificante de la entrega: PDF/A sellado con el sello del servicio, la firma en vectores, las fotos en miniatura y un QR a su página de verificación; `ETag` = su SHA-256',
        tipo: 'application/pdf',
        cabeceras: { ETag: true, 'Content-Disposition': true },
      },
    ],
    extension: true,
  },
  firma_entrega: {
    resumen: 'Firma de una entrega (PNG)',
    etiqueta: 'DeCA',
    parametros: { n: 'Número de la entrega en su DeCA (`n`, 1 la primera)' },
    exito: [
      {
        estado: 200,
        descripcion: 'La firma de quien recibió (o rechazó) como imagen PNG de 800 px de ancho sobre fondo transparente, dibujada de sus trazos; `ETag` = su SHA-256. 404 si la entrega no tiene firma',
        tipo: 'image/png',
        cabeceras: { ETag: true, 'Content-Disposition': true },
      },
    ],
    extension: true,
  },
  pedir_firma_remota: {
    resumen: 'Enlace para firmar en el móvil del destinatario',
    etiqueta: 'DeCA',
    limiteKB: 4,
    cuerpo: { json: FirmaRemotaInput, ejemplo: { envio: 0 } },
    exito: [
      json(
        FirmaRemotaRespuesta,
        'Un enlace de un solo uso, válido 30 minutos, que el destinatario abre en su móvil (sin cuenta) para firmar la entrega: muéstrelo como QR. Uno nuevo para el mismo envío anula el anterior. Cabecera `Location`: dónde consultar si ya firmó',
        201,
        { Location: true },
      ),
    ],
    conflictos: ['pendiente', 'sustituido', 'entregado'],
    extension: true,
  },
  ver_firma_remota: {
    resumen: 'Estado de un enlace para firmar',
    etiqueta: 'DeCA',
    parametros: { solicitud: 'Id del enlace (`firma_remota.id`)' },
    exito: [json(FirmaRemotaRespuesta, 'Si el destinatario ya firmó (con la entrega), si espera o si el enlace caducó')],
    extension: true,
  },
  anular_firma_remota: {
    resumen: 'Anular un enlace para firmar',
    etiqueta: 'DeCA',
    limiteKB: 4,
    cuerpo: VACIO,
    parametros: { solicitud: 'Id del enlace (`firma_remota.id`)' },
    exito: [json(FirmaRemotaRespuesta, 'El enlace anulado (`estado: anulada`); si ya se firmó, `firmada` con la entrega, que no se deshace')],
    extension: true,
  },
  documentos_camino: {
    resumen: 'Documentos para el camino',
    etiqueta: 'DeCA',
    consulta: CaminoQuery,
    exito: [json(DocumentosCamino, 'Las DeCA emitidas de ±7 días, para guardarlas sin conexión')],
    extension: true,
  },
  ver_cuenta: {
    resumen: 'La cuenta y su cuota',
    etiqueta: 'Cuenta',
    exito: [json(CuentaResponse, 'Empresa, plan y cuota del mes del entorno')],
    herramientas: [
      {
        titulo: 'Ver la cuenta',
        descripcion:
          'Devuelve la empresa de la cuenta (nombre, NIF, domicilio, si es transportista o cargador), su plan y la cuota del mes: DeCA emitidas y lecturas de fotos usadas y restantes. Úsela antes de crear DeCA para saber qué lado ocupa la cuenta (sus datos se ponen solos) y si queda cuota.',
        lectura: true,
        anotaciones: CONSULTA,
      },
    ],
  },
  efti_accesos: {
    resumen: 'Accesos de autoridades por eFTI',
    etiqueta: 'Cuenta',
    consulta: AccesosEftiQuery,
    exito: [
      json(
        AccesosEftiList,
        'Cada consulta de una pasarela eFTI (una autoridad de la UE) que devolvió DeCA de la cuenta, la más reciente primero: quién (la pasarela), cuándo, qué pidió (un UIL y sus subconjuntos, o una matrícula) y qué DeCA se le dieron; `siguiente` lleva a la próxima página. Ver docs/efti.md',
      ),
    ],
    extension: true,
  },
  buscar_agenda_empresas: EMPRESAS.buscar,
  guardar_agenda_empresas: EMPRESAS.guardar,
  buscar_agenda_vehiculos: VEHICULOS.buscar,
  guardar_agenda_vehiculos: VEHICULOS.guardar,
  buscar_agenda_lugares: LUGARES.buscar,
  guardar_agenda_lugares: LUGARES.guardar,
  cambiar_agenda_empresas: EMPRESAS.cambiar,
  eliminar_agenda_empresas: EMPRESAS.eliminar,
  fusionar_agenda_empresas: EMPRESAS.fusionar,
  cambiar_agenda_vehiculos: VEHICULOS.cambiar,
  eliminar_agenda_vehiculos: VEHICULOS.eliminar,
  fusionar_agenda_vehiculos: VEHICULOS.fusionar,
  cambiar_agenda_lugares: LUGARES.cambiar,
  eliminar_agenda_lugares: LUGARES.eliminar,
  fusionar_agenda_lugares: LUGARES.fusionar,
  importar_csv: {
    resumen: 'Importar un CSV',
    etiqueta: 'Importación',
    consulta: ImportarQuery,
    cuerpo: { archivo: 'csv', tipos: ['multipart/form-data', 'text/csv'], descripcion: 'El CSV (campo `csv` de un formulario, o el cuerpo entero), hasta 5 MB, UTF-8 o Windows-1252' },
    exito: [json(Importacion, 'Resultado por DeCA, con sus líneas y errores')],
  },
  exportar_csv: {
    resumen: 'Exportar la lista a CSV',
    etiqueta: 'Importación',
    consulta: DecaListQuery.omit({ limite: true, despues_de: true }),
    exito: [
      {
        estado: 200,
        descripcion:
          'Las DeCA del listado con los mismos filtros (q incluido), una fila por envío: las columnas de la importación y después numero, estado, version, emitido_at y fin_servicio_at (la importación no toma datos de ellas; numero agrupa las filas de una DeCA sin referencias)',
        tipo: 'text/csv',
        cabeceras: { 'Content-Disposition': true },
      },
    ],
    extension: true,
  },
  leer_albaran: {
    resumen: 'Leer la foto de un albarán',
    etiqueta: 'Fotos',
    cuerpo: { archivo: 'foto', tipos: ['multipart/form-data'], json: FotoBase64Input, descripcion: 'La foto (JPEG, PNG, WebP o HEIC) en el campo `foto` (hasta 2 MB), o en JSON `imagen_base64`' },
    exito: [json(FotoLeida, 'Propuesta de DeCA para revisar, con la confianza de cada campo; no se crea nada')],
    herramientas: [
      {
        titulo: 'Leer la foto de un albarán',
        descripcion:
          'Lee la foto de un albarán, pedido o carta de porte (JPEG, PNG, WebP o HEIC, hasta 2 MB, en base64) y devuelve una propuesta de DeCA: partes con NIF, fecha, matrículas, lugares, mercancía y pesos, con la confianza de cada dato (0 a 1), el texto reconocido y avisos. No crea nada: enseñe la propuesta al usuario, pídale que confirme o corrija sobre todo los datos de confianza baja, y después use crear_deca. Gasta una lectura de fotos del mes.',
        lectura: false,
        entrada: FotoBase64Input,
        anotaciones: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
    ],
  },
  listar_webhooks: { resumen: 'Listar webhooks', etiqueta: 'Webhooks', exito: [json(WebhookList, 'Los webhooks del entorno')] },
  crear_webhook: {
    resumen: 'Crear un webhook',
    etiqueta: 'Webhooks',
    limiteKB: 16,
    cuerpo: { json: WebhookInput },
    exito: [json(WebhookCreado, 'Creado; el secreto solo se muestra ahora; cabecera `Location`', 201, { Location: true })],
    conflictos: ['limite_webhooks'],
  },
  ver_webhook: { resumen: 'Ver un webhook', etiqueta: 'Webhooks', exito: [json(z.object({ webhook: Webhook }), 'El webhook')] },
  cambiar_webhook: { resumen: 'Cambiar, pausar o reanudar', etiqueta: 'Webhooks', limiteKB: 16, cuerpo: { json: WebhookPatch }, exito: [json(z.object({ webhook: Webhook }), 'El webhook cambiado')] },
  eliminar_webhook: { resumen: 'Eliminar un webhook', etiqueta: 'Webhooks', exito: [json(WebhookEliminado, 'Eliminado')] },
  entregas_webhook: { resumen: 'Entregas de un webhook', etiqueta: 'Webhooks', exito: [json(EntregaList, 'Cada entrega con su estado, intentos y próximo reintento')] },
  probar_webhook: { resumen: 'Enviar un ping de prueba', etiqueta: 'Webhooks', limiteKB: 16, cuerpo: VACIO, exito: [json(EntregaResultado, 'El intento hecho ahora')] },
  reenviar_entrega: {
    resumen: 'Reenviar una entrega',
    etiqueta: 'Webhooks',
    limiteKB: 16,
    parametros: { entrega: 'Id de la entrega' },
    cuerpo: VACIO,
    exito: [json(EntregaResultado, 'El intento hecho ahora')],
    conflictos: ['en_curso'],
  },
} as const satisfies Record<NombreOperacion, Operacion>;

/** The command an operation runs: its own name unless the entry says another (the agenda's). */
export const comandoDe = (nombre: NombreOperacion): string => (OPERACIONES[nombre] as Operacion).comando ?? nombre;

type Op<N extends NombreOperacion> = (typeof OPERACIONES)[N];
type Vacio = Record<never, never>;

/** What a client sends for operation N: path parameters, body fields and query fields in one object. */
export type EntradaDe<N extends NombreOperacion> = { [P in ParametrosDeRuta<(typeof RUTAS)[N][1]>]: string | number } & (Op<N> extends { cuerpo: { json: infer S extends z.ZodType } }
  ? Op<N> extends { cuerpo: { archivo: string } } | { cuerpo: typeof VACIO }
    ? Vacio
    : z.input<S>
  : Vacio) &
  (Op<N> extends { consulta: infer Q extends z.ZodType } ? z.input<Q> : Vacio);

/** What operation N answers on success: its first JSON answer, or the bytes of a file. */
export type SalidaDe<N extends NombreOperacion> = Op<N>['exito'][0] extends { json: infer S extends z.ZodType } ? z.output<S> : ArrayBuffer;
