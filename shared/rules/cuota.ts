/**
 * Monthly DeCA quota by plan (spec: Limits). Free: unlimited until
 * 2026-12-31 inclusive, then 100 a month; Pro: unlimited. The test environment
 * never counts against it.
 */

export type Plan = 'free' | 'pro';
export type Entorno = 'produccion' | 'pruebas';

export const CUOTA_FREE_MENSUAL = 100;
/** Last month of the launch offer with no limit on the free plan. */
export const ULTIMO_MES_SIN_LIMITE = '2026-12';

/** The quota for `mes` (`YYYY-MM`, Madrid), or null when unlimited. */
export function limiteMensual(plan: Plan, entorno: Entorno, mes: string): number | null {
  if (entorno === 'pruebas') return null;
  if (plan === 'pro') return null;
  return mes <= ULTIMO_MES_SIN_LIMITE ? null : CUOTA_FREE_MENSUAL;
}

/** Spec: photo reads a month on the free plan. */
export const FOTOS_FREE_MENSUAL = 20;

/** Photo reads allowed a month, or null when unlimited (Pro, and the test environment). */
export function limiteFotos(plan: Plan, entorno: Entorno): number | null {
  return entorno === 'pruebas' || plan === 'pro' ? null : FOTOS_FREE_MENSUAL;
}
