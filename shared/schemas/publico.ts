/**
 * What the public pages (`/d/…`, `/completar/…`, `/verificar`) are handed to
 * render: views the commands present, never database rows. Instants stay
 * `Date`s: the pages write them in Madrid time, in their own words.
 */
import type { Aviso, Campos } from '../errors';
import type { CampoEfti } from '../rules/campos-deca';
import type { ResumenOffline } from '../rules/resumen-offline';
import type { Entorno, Rol } from './cuenta';
import type { CampoCambiado, CampoDatos, Deca, DecaDatos, DecaUrls, Estado } from './deca';
import type { EnvioImpreso } from './envio';

/**
 * A DeCA as anyone with its link may see it: the art. 6 data (never the
 * driver's phone, nor the eFTI extensions the PDF does not print: the
 * addresses in parts, the plates' countries, the consignees), its state and its links.
 */
export type DecaPublica = Omit<DecaDatos, 'conductor_tel' | CampoEfti | 'envios'> & {
  envios: EnvioImpreso[];
  numero: string;
  entorno: Entorno;
  estado: Estado;
  version: number;
  urls: DecaUrls;
  /** SHA-256 of the PDF in force, once issued. */
  pdf_sha256: string | null;
  emitido_at: Date | null;
  fin_servicio_at: Date | null;
  /** Issued on a device with no coverage: the device's name then, and when the server received it. */
  emision_offline: { dispositivo: string | null; recibida_at: Date } | null;
  /** The number of the DeCA this one replaces. */
  sustituye_a: string | null;
  /** The DeCA that replaced this one. */
  sustituida_por: { numero: string; ficha: string } | null;
};

/** The last method-1 change of a DeCA: when, why, and each old → new value. */
export interface UltimoCambio {
  at: Date;
  motivo: string | null;
  campos: CampoCambiado[];
}

/** A delivery as the public may know it: that it happened, of which shipment, when. Never who signed, the signature, the photos or where. */
export interface EntregaPublica {
  n: number;
  /** Index of the shipment in the DeCA; null for all of them. */
  envio: number | null;
  resultado: 'entregada' | 'rechazada';
  /** The phone's time when it was collected. */
  registrada_at: Date;
}

/** What the inspector's page and the driver's page show. */
export interface FichaPublica {
  deca: DecaPublica;
  ultimo: UltimoCambio | null;
  /** Its deliveries (extension), first to last. */
  entregas: EntregaPublica[];
}

/** A delivery's receipt as its verification page (its QR) and the authenticity check show it. */
export interface JustificantePublico extends EntregaPublica {
  numero: string;
  entorno: Entorno;
  /** The DeCA's public page. */
  ficha: string;
  pdf_sha256: string;
  recibida_at: Date;
  /** The shipments it covers, as places. */
  envios: { indice: number; origen: string | null; destino: string | null }[];
}

/** What the QR of a DeCA issued with no coverage vouches for, checked against the device's key. */
export interface FichaOffline {
  resumen: ResumenOffline;
  /** The environment the number was reserved in (the summary does not carry it): a test one is marked as such. */
  entorno: Entorno;
  /** The company whose device signed it. */
  empresa: string;
  dispositivo: string;
}

/** The ficha, or what the QR of a DeCA issued with no coverage vouches for until it arrives. */
export type VistaFicha = ({ tipo: 'deca' } & FichaPublica) | { tipo: 'offline'; offline: FichaOffline };

/** The completion form of the other party, as it stands after a step. */
export interface CompletarVista {
  deca: DecaPublica;
  /** The company that asks for the data. */
  solicitante: string;
  /** The fields the other party may fill, in print order. */
  editables: CampoDatos[];
  valores: Record<string, string>;
  errores: Campos;
  /** The shared warnings of the app's form, each shown at its field. */
  avisos: Aviso[];
  /** Shipment rows the form shows. */
  filas: number;
  /** Issuing was asked with warnings: the page asks first, and «Emitir de todos modos» carries this back. */
  confirmar?: string;
  /** Fields of the DeCA the post tried to set that the other party may not: refused, nothing saved. */
  rechazados?: string[];
  /** A line shown above the form (e.g. «Borrador guardado»). */
  aviso?: string;
}

/** Where the other party stands on a completion link, and what to show. */
export type PasoCompletar =
  | {
      tipo: 'inicio';
      deca: DecaPublica;
      solicitante: string;
      /** The side whose data the other party fills. */
      lado: Rol;
    }
  | { tipo: 'ya_emitida'; numero: string; ficha: string }
  | ({ tipo: 'formulario' } & CompletarVista)
  | { tipo: 'guardado' }
  | { tipo: 'emitida'; deca: Deca; solicitante: string };

/** The answer of the authenticity check: the file's fingerprint, and the version of a DeCA it is, if any. */
export interface AutenticidadVista {
  sha256: string;
  encontrada: {
    /** The DeCA as it stands now. */
    deca: DecaPublica;
    /** The version this file is. */
    version: number;
    entorno: Entorno;
    emitida_at: Date;
  } | null;
  /** A delivery's receipt this file is, when it is one (extension). */
  justificante?: JustificantePublico | null;
}

/** The page of the link to a closed account's data: ready to download once, or why not. */
export type ExportacionVista =
  | { estado: 'lista'; empresa: string; bytes: number; caduca_at: Date }
  | { estado: 'descargada'; empresa: string; descargada_at: Date }
  | { estado: 'caducada'; empresa: string; caduca_at: Date };

/** What the consignee's page shows: the goods they sign for, whose they are, and how long the link lasts. */
export interface VistaFirmaRemota {
  numero: string;
  cargador_nombre: string | null;
  transp_nombre: string | null;
  matricula: string | null;
  conductor_nombre: string | null;
  /** The shipments the signature covers (one, or all of the DeCA's). */
  envios: { indice: number; origen: string | null; destino: string | null; naturaleza: string | null; cantidad: string | null }[];
  todos: boolean;
  expira_at: string;
  minutos_restantes: number;
}

/** What the page posts: the delivery's fields by their API names, the signature as the pad's JSON. */
export type ValoresFirmaRemota = Partial<Record<'resultado' | 'receptor_nombre' | 'receptor_documento' | 'reservas' | 'sin_reservas' | 'motivo_rechazo' | 'firma', string>>;
