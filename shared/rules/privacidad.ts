/**
 * What the service keeps of people and for how long: the figures the
 * /privacidad page, the README, the app and the server all say and do.
 */

/** The public page that says it (server-rendered, linked from the public pages and the app's account screen). */
export const RUTA_PRIVACIDAD = '/privacidad';

/** Issued DeCAs, their versions and history are kept this long (spec: Retention; Orden FOM/2861/2012 art. 6). */
export const CONSERVACION_DECA_TEXTO = 'un año';
/** The same, in months: the least RETENCION_MESES may be. */
export const MESES_CONSERVACION = 12;

/** The public download log keeps each open's whole IP this many days; then only its network (IPv4 /24, IPv6 /48). */
export const DIAS_IP_COMPLETA = 90;

/** The link to a closed account's data works this many days (and once). */
export const DIAS_EXPORTACION = 7;

/** A delivery-note photo that became no DeCA is deleted this many days after it was read (one that did goes with its DeCA). */
export const DIAS_FOTO_SIN_DECA = 30;
