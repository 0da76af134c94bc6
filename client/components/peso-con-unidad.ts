import { formatPeso, parsePeso } from '../../shared/rules/peso';

/**
 * A shipment's weight or quantity with its unit, as the PDF writes it
 * («22.400 kg», «1,5 t»): a number from the server, or the text typed in the
 * form before the sync («22400», «1,5 t»). Grouping is shared with the PDF
 * (shared/rules/peso.ts), which groups every thousand where `Intl`'s es-ES
 * leaves «2400» ungrouped. With no unit given, kilograms. Text that is not a
 * weight is shown as typed; nothing is «».
 */
export function pesoConUnidad(peso: unknown, unidad?: unknown): string {
  const u = typeof unidad === 'string' && unidad ? unidad : null;
  if (typeof peso === 'number') return `${formatPeso(peso)} ${u ?? 'kg'}`;
  if (typeof peso !== 'string' || !peso.trim()) return '';
  const r = parsePeso(peso);
  return r.ok ? `${formatPeso(r.valor)} ${u ?? r.unidad ?? 'kg'}` : peso;
}
