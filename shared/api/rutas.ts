/**
 * The operations of the API by name: method and path under the environment's
 * base (and `'consulta'` on a POST whose fields travel in the query: its body is a file)
 * base. The first half of the one operation table; the other half,
 * `operaciones.ts`, adds each one's schemas, answers, errors and MCP tool,
 * keyed by the same names (the compiler refuses a name missing from either).
 * Kept apart, with no zod, because the app's first screen calls the API
 * (`llamar` in client/data/api.ts) and must not download the schemas.
 *
 * The name is the operation's `operationId`, and the name of the command it
 * runs and of its MCP tool, except for the agenda's three kinds, which share
 * their commands (`buscar_agenda`, `guardar_agenda`, `cambiar_agenda`,
 * `eliminar_agenda`, `fusionar_agenda`).
 */
import type { Entorno } from '../schemas/cuenta';

export type Metodo = 'get' | 'post' | 'patch' | 'delete';

export const RUTAS = {
  crear_deca: ['post', '/decas'],
  listar_decas: ['get', '/decas'],
  ver_deca: ['get', '/decas/{id}'],
  modificar_deca: ['patch', '/decas/{id}'],
  eliminar_deca: ['delete', '/decas/{id}'],
  emitir_deca: ['post', '/decas/{id}/emitir'],
  sustituir_deca: ['post', '/decas/{id}/sustituir'],
  fin_servicio: ['post', '/decas/{id}/fin'],
  archivar_deca: ['post', '/decas/{id}/archivar'],
  historial_deca: ['get', '/decas/{id}/cambios'],
  descargas_deca: ['get', '/decas/{id}/descargas'],
  pdf_deca: ['get', '/decas/{id}/pdf'],
  qr_deca: ['get', '/decas/{id}/qr.png'],
  efti_deca: ['get', '/decas/{id}/efti'],
  foto_deca: ['get', '/decas/{id}/foto'],
  pedir_datos: ['post', '/decas/{id}/pedir-datos'],
  enviar_deca: ['post', '/decas/{id}/enviar'],
  control_carretera: ['post', '/decas/{id}/control'],
  entregar_deca: ['post', '/decas/{id}/entregas'],
  ver_entregas: ['get', '/decas/{id}/entregas'],
  pdf_entrega: ['get', '/decas/{id}/entregas/{n}/pdf'],
  firma_entrega: ['get', '/decas/{id}/entregas/{n}/firma.png'],
  pedir_firma_remota: ['post', '/decas/{id}/entregas/firma-remota'],
  ver_firma_remota: ['get', '/decas/{id}/entregas/firma-remota/{solicitud}'],
  anular_firma_remota: ['post', '/decas/{id}/entregas/firma-remota/{solicitud}/anular'],
  documentos_camino: ['get', '/camino'],
  ver_cuenta: ['get', '/cuenta'],
  efti_accesos: ['get', '/efti/accesos'],
  buscar_agenda_empresas: ['get', '/agenda/empresas'],
  guardar_agenda_empresas: ['post', '/agenda/empresas'],
  buscar_agenda_vehiculos: ['get', '/agenda/vehiculos'],
  guardar_agenda_vehiculos: ['post', '/agenda/vehiculos'],
  buscar_agenda_lugares: ['get', '/agenda/lugares'],
  guardar_agenda_lugares: ['post', '/agenda/lugares'],
  cambiar_agenda_empresas: ['patch', '/agenda/empresas/{id}'],
  eliminar_agenda_empresas: ['delete', '/agenda/empresas/{id}'],
  fusionar_agenda_empresas: ['post', '/agenda/empresas/{id}/fusionar'],
  cambiar_agenda_vehiculos: ['patch', '/agenda/vehiculos/{id}'],
  eliminar_agenda_vehiculos: ['delete', '/agenda/vehiculos/{id}'],
  fusionar_agenda_vehiculos: ['post', '/agenda/vehiculos/{id}/fusionar'],
  cambiar_agenda_lugares: ['patch', '/agenda/lugares/{id}'],
  eliminar_agenda_lugares: ['delete', '/agenda/lugares/{id}'],
  fusionar_agenda_lugares: ['post', '/agenda/lugares/{id}/fusionar'],
  importar_csv: ['post', '/importar', 'consulta'],
  exportar_csv: ['get', '/decas.csv'],
  leer_albaran: ['post', '/fotos'],
  listar_webhooks: ['get', '/webhooks'],
  crear_webhook: ['post', '/webhooks'],
  ver_webhook: ['get', '/webhooks/{id}'],
  cambiar_webhook: ['patch', '/webhooks/{id}'],
  eliminar_webhook: ['delete', '/webhooks/{id}'],
  entregas_webhook: ['get', '/webhooks/{id}/entregas'],
  probar_webhook: ['post', '/webhooks/{id}/probar'],
  reenviar_entrega: ['post', '/webhooks/{id}/entregas/{entrega}/reenviar'],
} as const satisfies Record<string, readonly [Metodo, `/${string}`] | readonly [Metodo, `/${string}`, 'consulta']>;

export type NombreOperacion = keyof typeof RUTAS;

/** The API's base path in each environment: the same operations, the test environment under `/demo`. */
export const API_BASE: Record<Entorno, '/api/v1' | '/demo/api/v1'> = { produccion: '/api/v1', pruebas: '/demo/api/v1' };

/** The names in a path template: `'/webhooks/{id}/entregas/{entrega}/reenviar'` → `'id' | 'entrega'`. */
export type ParametrosDeRuta<R extends string> = R extends `${string}{${infer P}}${infer Resto}` ? P | ParametrosDeRuta<Resto> : never;

/**
 * A path template filled with its parameters (each URL-encoded), and what
 * is left of the input: `rutaCon('/decas/{id}/emitir', { id: 7, x: 1 })` →
 * `['/decas/7/emitir', { x: 1 }]`. A missing parameter is a programming
 * error, thrown at once rather than sent as `/decas/undefined`.
 */
export function rutaCon(plantilla: string, entrada: Record<string, unknown>): [string, Record<string, unknown>] {
  const resto = { ...entrada };
  const ruta = plantilla.replace(/\{(\w+)\}/g, (_, nombre: string) => {
    const valor = resto[nombre];
    if (typeof valor !== 'string' && typeof valor !== 'number') throw new TypeError(`Falta el parámetro «${nombre}» de ${plantilla}`);
    delete resto[nombre];
    return encodeURIComponent(String(valor));
  });
  return [ruta, resto];
}

/** Koa's form of a path template: `{id}` → `:id`. */
export const rutaKoa = (plantilla: string): string => plantilla.replace(/\{(\w+)\}/g, ':$1');
