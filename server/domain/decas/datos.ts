import { datosVacios } from '../../../shared/rules/datos-deca';
import { CAMPOS_DATOS, type CampoCambiado, type DecaDatos } from '../../../shared/schemas/deca';
import type { Envio } from '../../../shared/schemas/envio';
import type { DecaRow } from '../../db/schema';

/** The document data held in a row. */
export function datosDeRow(row: DecaRow): DecaDatos {
  const d = datosVacios();
  for (const campo of CAMPOS_DATOS) (d as Record<string, unknown>)[campo] = row[campo] ?? (campo === 'envios' ? [] : null);
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
    for (const k of ['origen', 'destino', 'naturaleza', 'peso', 'unidad', 'nota'] as const) {
      if (!igual(a[k], b[k])) out.push({ campo: `envios[${i}].${k}`, antes: a[k], despues: b[k] });
    }
  }
  return out;
}
