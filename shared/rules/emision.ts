import type { Aviso, Campos } from '../errors';
import type { Rol } from '../schemas/cuenta';
import { CAMPOS_DATOS, type CampoDatos, type DecaDatos } from '../schemas/deca';
import { PAISES, problemaCodigoPostal } from './direccion';
import { clasificarMatricula } from './matricula';
import { avisoNif } from './nif';
import { cargaInverosimil } from './peso';

/** Which party supplies each field (spec: the «Set by» column). */
export const LADO_CAMPO: Record<CampoDatos, 'cargador' | 'transportista' | 'ambos'> = {
  cargador_nombre: 'cargador',
  cargador_nif: 'cargador',
  cargador_domicilio: 'cargador',
  transp_nombre: 'cargador',
  transp_nif: 'cargador',
  transp_domicilio: 'cargador',
  fecha_transporte: 'transportista',
  tipo_vehiculo: 'transportista',
  matricula: 'transportista',
  matricula_remolque: 'transportista',
  autorizacion_especial: 'transportista',
  conductor_nombre: 'transportista',
  conductor_tel: 'transportista',
  observaciones: 'ambos',
  referencia: 'ambos',
  cargador_cp: 'cargador',
  cargador_municipio: 'cargador',
  cargador_provincia: 'cargador',
  cargador_pais: 'cargador',
  transp_cp: 'cargador',
  transp_municipio: 'cargador',
  transp_provincia: 'cargador',
  transp_pais: 'cargador',
  matricula_pais: 'transportista',
  remolque_pais: 'transportista',
  envios: 'cargador',
};

/** Each party's own data: the side that issues has it filled from its account (spec: «That side is filled with the account's company»). */
export const DATOS_PROPIOS: Record<Rol, readonly CampoDatos[]> = {
  cargador: ['cargador_nombre', 'cargador_nif', 'cargador_domicilio', 'cargador_cp', 'cargador_municipio', 'cargador_provincia', 'cargador_pais'],
  transportista: ['transp_nombre', 'transp_nif', 'transp_domicilio', 'transp_cp', 'transp_municipio', 'transp_provincia', 'transp_pais'],
};

/**
 * What the other party completes through the link of a DeCA `emisorRol`
 * issued: its own data, and the fields the «Set by» column gives to its side
 * or to both. Never the issuer's own data: the spec gives the carrier's name
 * and NIF to the shipper, but when the carrier issues they are its account's
 * and the shipper must not rewrite them. So the shipper sets its data, the
 * shipments and their places; the carrier its data, the date, vehicle and
 * driver; either one remarks and reference. The vehicle type is not asked:
 * it follows from the plates.
 */
export function camposDelOtroLado(emisorRol: Rol): CampoDatos[] {
  const otro: Rol = emisorRol === 'transportista' ? 'cargador' : 'transportista';
  return CAMPOS_DATOS.filter((c) => c !== 'tipo_vehiculo' && !DATOS_PROPIOS[emisorRol].includes(c) && (DATOS_PROPIOS[otro].includes(c) || LADO_CAMPO[c] === otro || LADO_CAMPO[c] === 'ambos'));
}

const OBLIGATORIO = 'Obligatorio para emitir';

/**
 * What is still missing to issue, by field path (Orden FOM/2861/2012 art. 6:
 * shipper name, NIF and address; carrier name and NIF; origin, destination,
 * nature and weight of each shipment; transport date; vehicle plate).
 * The carrier's address is asked for too when the carrier issues: it is its
 * own company's address (from the account), so it is always at hand.
 * Empty when the DeCA can be issued.
 */
export function faltaParaEmitir(d: DecaDatos, emisorRol?: Rol): Campos {
  const faltan: Campos = {};
  const simples = ['cargador_nombre', 'cargador_nif', 'cargador_domicilio', 'transp_nombre', 'transp_nif', 'fecha_transporte', 'matricula'] as const;
  for (const campo of simples) if (!d[campo]) faltan[campo] = OBLIGATORIO;
  if (emisorRol === 'transportista' && !d.transp_domicilio) faltan.transp_domicilio = 'Obligatorio para emitir: el domicilio de su empresa';
  if (d.envios.length === 0) faltan.envios = 'Añada al menos un envío (origen, destino, mercancía y peso)';
  d.envios.forEach((e, i) => {
    if (!e.origen) faltan[`envios[${i}].origen`] = OBLIGATORIO;
    if (!e.destino) faltan[`envios[${i}].destino`] = OBLIGATORIO;
    if (!e.naturaleza) faltan[`envios[${i}].naturaleza`] = OBLIGATORIO;
    if (e.peso === null) faltan[`envios[${i}].peso`] = OBLIGATORIO;
  });
  return faltan;
}

/** `matricula_remolque` makes the vehicle articulated (spec); a lone tractor or lorry is rigid. */
export function derivarTipoVehiculo(d: Pick<DecaDatos, 'tipo_vehiculo' | 'matricula' | 'matricula_remolque'>): DecaDatos['tipo_vehiculo'] {
  if (d.matricula_remolque) return 'articulado';
  if (d.tipo_vehiculo) return d.tipo_vehiculo;
  return d.matricula ? 'rigido' : null;
}

/**
 * Soft problems: the DeCA is accepted, but someone should look. A NIF whose
 * check character fails (the parties' and the consignees'), a plate of no
 * known series (unless it is said to be foreign), a Spanish plate said to
 * be foreign, a postcode that does not fit its country, a load no road vehicle
 * carries (usually the wrong unit), the carrier's address
 * missing (art. 6 asks for it; the spec has no field, so ours is optional).
 */
export function avisosDeca(d: DecaDatos, entrada?: { tipo_vehiculo?: string | null; emisorRol?: Rol }): Aviso[] {
  const avisos: Aviso[] = [];
  for (const campo of ['cargador_nif', 'transp_nif'] as const) {
    const v = d[campo];
    if (!v) continue;
    const mensaje = avisoNif(v);
    if (mensaje) avisos.push({ campo, codigo: 'nif_dudoso', mensaje });
  }
  for (const [campo, campoPais] of [
    ['matricula', 'matricula_pais'],
    ['matricula_remolque', 'remolque_pais'],
  ] as const) {
    const v = d[campo];
    if (!v) continue;
    const pais = d[campoPais];
    const r = clasificarMatricula(v);
    // A plate said to be foreign is not judged by the Spanish series; one that is of a Spanish series and said to be foreign is asked about.
    if (pais && pais !== 'ES') {
      if (r.valida) {
        avisos.push({
          campo: campoPais,
          codigo: 'pais_matricula_dudoso',
          mensaje: `La matrícula ${v} es de una serie española, pero el país indicado es ${pais} (${PAISES[pais] ?? pais}): revise el país.`,
        });
      }
    } else if (!r.valida) avisos.push({ campo, codigo: 'matricula_dudosa', mensaje: `Revise la matrícula ${v}: ${r.motivo ?? 'no es válida'}.` });
    else if (campo === 'matricula_remolque' && r.tipo !== 'remolque' && r.tipo !== 'provincial') {
      avisos.push({ campo, codigo: 'matricula_dudosa', mensaje: `La matrícula ${v} no parece de remolque (R-0000-BBB).` });
    }
  }
  // A postcode kept while only the country changed (a change sends one of the two): the schema judged them together only when sent together.
  for (const lado of ['cargador', 'transp'] as const) {
    const cp = d[`${lado}_cp`];
    const problema = cp ? problemaCodigoPostal(cp, d[`${lado}_pais`], `${lado}_pais`) : null;
    if (problema) avisos.push({ campo: `${lado}_cp`, codigo: 'codigo_postal_dudoso', mensaje: `${problema}.` });
  }
  d.envios.forEach((e, i) => {
    const mensaje = e.destinatario_nif ? avisoNif(e.destinatario_nif) : null;
    if (mensaje) avisos.push({ campo: `envios[${i}].destinatario_nif`, codigo: 'nif_dudoso', mensaje });
    if (e.peso === null) return;
    const motivo = cargaInverosimil(e.peso, e.unidad, { autorizacionEspecial: Boolean(d.autorizacion_especial) });
    if (motivo) avisos.push({ campo: `envios[${i}].peso`, codigo: 'carga_inverosimil', mensaje: motivo });
  });
  if (!d.transp_domicilio && entrada?.emisorRol !== 'transportista') {
    avisos.push({
      campo: 'transp_domicilio',
      codigo: 'falta_domicilio_transportista',
      mensaje: 'El art. 6 de la Orden FOM/2861/2012 pide también el domicilio del transportista: añádalo.',
    });
  }
  if (entrada?.tipo_vehiculo === 'rigido' && d.matricula_remolque) {
    avisos.push({ campo: 'tipo_vehiculo', codigo: 'vehiculo_articulado', mensaje: 'Con remolque el vehículo es articulado: se ha anotado así.' });
  }
  if (d.tipo_vehiculo === 'articulado' && !d.matricula_remolque) {
    avisos.push({ campo: 'matricula_remolque', codigo: 'falta_remolque', mensaje: 'Vehículo articulado sin matrícula de remolque: añádala si la conoce.' });
  }
  return avisos;
}

/**
 * The data after a modification (PATCH) or a replacement (method 2): a field
 * sent replaces the old value (null clears it), one not sent stays as it was.
 * Removing the trailer without sending a vehicle type drops the old
 * «articulado»; the type is then derived again from the plates. Unlike a
 * create, nothing is filled from the account: a party's data cleared here
 * stays cleared, and `faltaParaEmitir` says it is missing.
 */
export function datosTrasCambios(antes: DecaDatos, cambios: Partial<Record<string, unknown>>, enviados: ReadonlySet<string>): DecaDatos {
  const d: DecaDatos = { ...antes, envios: antes.envios.map((e) => ({ ...e })) };
  for (const campo of CAMPOS_DATOS) {
    if (!enviados.has(campo)) continue;
    const v = cambios[campo];
    if (campo === 'envios') d.envios = (v as DecaDatos['envios'] | null | undefined) ?? [];
    else (d as Record<string, unknown>)[campo] = v ?? null;
  }
  if (enviados.has('matricula_remolque') && !enviados.has('tipo_vehiculo') && !d.matricula_remolque) d.tipo_vehiculo = null;
  d.tipo_vehiculo = derivarTipoVehiculo(d);
  return d;
}
