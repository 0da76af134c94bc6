/**
 * The operation table (shared/api) joined with the commands that run it:
 * what every door of the API reads — the REST routes, the OpenAPI document
 * and the MCP tools — so that none of them names a command or a path of its own.
 */
import { comandoDe, type HerramientaMcp, OPERACIONES, type Operacion } from '../../shared/api/operaciones';
import { type Metodo, type NombreOperacion, RUTAS } from '../../shared/api/rutas';
import { buscarAgendaCommand, cambiarAgendaCommand, eliminarAgendaCommand, fusionarAgendaCommand, guardarAgendaCommand } from './agenda';
import type { AnyCommand } from './command';
import { verCuentaCommand } from './cuenta';
import {
  archivarDecaCommand,
  controlCarreteraCommand,
  crearDecaCommand,
  descargasDecaCommand,
  documentosCaminoCommand,
  eftiDecaCommand,
  eliminarDecaCommand,
  emitirDecaCommand,
  enviarDecaCommand,
  finServicioCommand,
  fotoDecaCommand,
  historialDecaCommand,
  listarDecasCommand,
  modificarDecaCommand,
  pdfDecaCommand,
  pedirDatosCommand,
  qrDecaCommand,
  sustituirDecaCommand,
  validarDecaCommand,
  verDecaCommand,
} from './decas';
import { accesosEftiCommand } from './efti';
import { anularFirmaRemotaCommand, entregarDecaCommand, firmaEntregaCommand, pdfEntregaCommand, pedirFirmaRemotaCommand, verEntregasCommand, verFirmaRemotaCommand } from './entregas';
import { leerAlbaranCommand } from './fotos';
import { exportarCsvCommand, importarCsvCommand } from './importar';
import {
  cambiarWebhookCommand,
  crearWebhookCommand,
  eliminarWebhookCommand,
  entregasWebhookCommand,
  listarWebhooksCommand,
  probarWebhookCommand,
  reenviarEntregaCommand,
  verWebhookCommand,
} from './webhooks';

/** The commands of the API's operations and MCP tools, by name (`comando.nombre`; a test checks each key is its command's name). */
export const COMANDOS_API: Record<string, AnyCommand> = Object.fromEntries(
  [
    crearDecaCommand,
    validarDecaCommand,
    listarDecasCommand,
    verDecaCommand,
    modificarDecaCommand,
    eliminarDecaCommand,
    emitirDecaCommand,
    sustituirDecaCommand,
    finServicioCommand,
    archivarDecaCommand,
    historialDecaCommand,
    descargasDecaCommand,
    pdfDecaCommand,
    eftiDecaCommand,
    fotoDecaCommand,
    qrDecaCommand,
    pedirDatosCommand,
    enviarDecaCommand,
    controlCarreteraCommand,
    entregarDecaCommand,
    verEntregasCommand,
    pdfEntregaCommand,
    firmaEntregaCommand,
    pedirFirmaRemotaCommand,
    verFirmaRemotaCommand,
    anularFirmaRemotaCommand,
    documentosCaminoCommand,
    verCuentaCommand,
    accesosEftiCommand,
    buscarAgendaCommand,
    guardarAgendaCommand,
    cambiarAgendaCommand,
    eliminarAgendaCommand,
    fusionarAgendaCommand,
    importarCsvCommand,
    exportarCsvCommand,
    leerAlbaranCommand,
    listarWebhooksCommand,
    crearWebhookCommand,
    verWebhookCommand,
    cambiarWebhookCommand,
    eliminarWebhookCommand,
    entregasWebhookCommand,
    probarWebhookCommand,
    reenviarEntregaCommand,
  ].map((c) => [c.nombre, c as AnyCommand]),
);

function comando(nombre: string, de: string): AnyCommand {
  const c = COMANDOS_API[nombre];
  if (!c) throw new Error(`${de} nombra el comando ${nombre}, que no está en COMANDOS_API`);
  return c;
}

/** One operation as the server's doors use it: its table entry, name, method, path, and the command it runs. */
export interface OperacionApi extends Omit<Operacion, 'comando'> {
  nombre: NombreOperacion;
  metodo: Metodo;
  ruta: string;
  comando: AnyCommand;
}

/** One MCP tool: its table entry and the command it runs. */
export interface HerramientaApi extends Omit<HerramientaMcp, 'comando'> {
  operacion: OperacionApi;
  comando: AnyCommand;
}

/** Every operation of the API, in the table's order. */
export const OPERACIONES_API: readonly OperacionApi[] = (Object.keys(RUTAS) as NombreOperacion[]).map((nombre) => {
  const [metodo, ruta] = RUTAS[nombre];
  const op: Operacion = OPERACIONES[nombre];
  return { ...op, nombre, metodo, ruta, comando: comando(comandoDe(nombre), `La operación ${nombre}`) };
});

/** Every MCP tool, named as its command. */
export const HERRAMIENTAS_API: readonly HerramientaApi[] = OPERACIONES_API.flatMap((operacion) =>
  (operacion.herramientas ?? []).map((h) => ({ ...h, operacion, comando: h.comando ? comando(h.comando, `La herramienta ${h.titulo}`) : operacion.comando })),
);
