import { datosVacios } from '../../../shared/rules/datos-deca';
import { CAMPOS_DATOS, type CampoCambiado, type DecaDatos } from '../../../shared/schemas/deca';
import { type Envio, envioCompleto } from '../../../shared/schemas/envio';
import type { DecaRow } from '../../db/schema';

/** The document data held in a row. */
export function datosDeRow(row: DecaRow): DecaDatos {
  const d = datosVacios();
  for (const campo of CAMPOS_DATOS) (d as Record<string, unknown>)[campo] = row[campo] ?? (campo === 'envios' ? [] : null);
  d.envios = d.envios.map(envioCompleto);
  return d;
}

/**
 * Apply a modification: a field present in the request replaces the old value
 * (null or "" clears it); a field not sent is left as it was.
 */
export function aplicarCambios(antes: DecaDatos, cambios: Partial<Record<string, unknown>>, enviados: ReadonlySet<string>): DecaDatos {
  const d: DecaDatos = { ...antes, envios: antes.envios.map((e) => ({ ...e })) };
  for (const campo of CAMPOS_DATOS) {
    if (!enviados.has(campo)) continue;
    const v = cambios[campo];
    if (campo === 'envios') d.envios = (v as Envio[] | null | undefined) ?? [];
    else (d as Record<string, unknown>)[campo] = v ?? null;
  }
  return d;
}

/** Row columns for the document data (envios as JSON text for the jsonb column). */
export function columnasDeDatos(d: DecaDatos): Omit<DecaDatos, 'envios'> & { envios: string } {
  return { ...d, envios: JSON.stringify(d.envios) };
}

function igual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Field-level changes from → to, with shipments compared item by item (`envios[2].peso`). */
export function diffDatos(antes: DecaDatos, despues: DecaDatos): CampoCambiado[] {
  const out: CampoCambiado[] = [];
  for (const campo of CAMPOS_DATOS) {
    if (campo === 'envios') continue;
    if (!igual(antes[campo], despues[campo])) out.push({ campo, antes: antes[campo] ?? null, despues: despues[campo] ?? null });
  }
  const n = Math.max(antes.envios.length, despues.envios.length);
  for (let i = 0; i < n; i++) {
    const a = antes.envios[i];
    const b = despues.envios[i];
    if (!a || !b) {
      out.push({ campo: `envios[${i}]`, antes: a ?? null, despues: b ?? null });
      continue;
    }
    for (const k of ['origen', 'destino', 'naturaleza', 'peso', 'unidad', 'nota', 'destinatario_nombre', 'destinatario_nif'] as const) {
      if (!igual(a[k], b[k])) out.push({ campo: `envios[${i}].${k}`, antes: a[k], despues: b[k] });
    }
  }
  return out;
}

/**
 * The fields a create records: every document field it was given, each from
 * nothing (the shipments apart: they are in the DeCA's data, never listed).
 * One function for the create that stores them (a pending one) and the read
 * that rebuilds them (an issued one: `listarCambios`). The keys are in the
 * order jsonb keeps them (by length, then bytes), so an entry rebuilt is
 * answered byte for byte as a stored one.
 */
export function camposDeCreacion(d: DecaDatos): CampoCambiado[] {
  return CAMPOS_DATOS.filter((c) => c !== 'envios' && d[c] !== null).map((c) => ({ antes: null, campo: c, despues: d[c] }));
}

/**
 * The document fields as they were before some changes: `actual` with each
 * change undone, newest first (`cambios`: the fields of each, oldest first,
 * as `diffDatos` recorded them); the shipments are left as they are now (what
 * `camposDeCreacion` needs: it does not list them). Exact when
 * every change of those fields since is among them, as for an issued DeCA:
 * only the modifications change its data, and each records what it changed.
 */
export function datosAntesDe(actual: DecaDatos, cambios: readonly (readonly CampoCambiado[])[]): DecaDatos {
  const d: DecaDatos = { ...actual };
  const campos: ReadonlySet<string> = new Set(CAMPOS_DATOS.filter((c) => c !== 'envios'));
  for (const lista of [...cambios].reverse()) {
    for (const c of lista) if (campos.has(c.campo)) (d as Record<string, unknown>)[c.campo] = c.antes ?? null;
  }
  return d;
}
