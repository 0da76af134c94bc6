/**
 * A DeCA's document data from its input: the normalisation the server does
 * when it creates one, and the app when it issues one with no coverage (the
 * PDF it renders must be the server's, byte for byte).
 */

import type { Campos } from '../errors';
import type { Rol } from '../schemas/cuenta';
import { CAMPOS_DATOS, type DecaDatos, type DecaInputParsed } from '../schemas/deca';
import { derivarTipoVehiculo, faltaParaEmitir } from './emision';

/** The account's own company: what fills the caller's side. */
export interface EmpresaPropia {
  nombre: string;
  nif: string;
  domicilio: string | null;
}

/** Empty document data. */
export function datosVacios(): DecaDatos {
  const d = Object.fromEntries(CAMPOS_DATOS.map((c) => [c, null])) as unknown as DecaDatos;
  d.envios = [];
  return d;
}

/** Parsed input (undefined = not given) → document data (null = not given). */
export function datosDeEntrada(input: Partial<Record<keyof DecaDatos, unknown>>): DecaDatos {
  const d = datosVacios();
  for (const campo of CAMPOS_DATOS) {
    const v = input[campo];
    if (v !== undefined && v !== null) (d as Record<string, unknown>)[campo] = v;
  }
  return d;
}

/**
 * Fill the caller's side with the account's company where left empty (spec:
 * «That side is filled with the account's company when left empty»), and
 * derive the vehicle type from the trailer plate.
 */
export function completarDatos(d: DecaDatos, emisorRol: Rol, empresa: EmpresaPropia): DecaDatos {
  const out = { ...d };
  if (emisorRol === 'cargador') {
    out.cargador_nombre ??= empresa.nombre;
    out.cargador_nif ??= empresa.nif;
    out.cargador_domicilio ??= empresa.domicilio;
  } else {
    out.transp_nombre ??= empresa.nombre;
    out.transp_nif ??= empresa.nif;
    out.transp_domicilio ??= empresa.domicilio;
  }
  out.tipo_vehiculo = derivarTipoVehiculo(out);
  return out;
}

/** A create's data as the DeCA will hold it, and what is still missing to issue it. */
export function datosParaEmitir(input: DecaInputParsed, empresa: EmpresaPropia, rolCuenta: Rol): { emisorRol: Rol; datos: DecaDatos; faltan: Campos } {
  const emisorRol = input.emisor_rol ?? rolCuenta;
  const datos = completarDatos(datosDeEntrada(input), emisorRol, empresa);
  return { emisorRol, datos, faltan: faltaParaEmitir(datos, emisorRol) };
}
