/** A unique index refused a write (PostgreSQL and PGlite both report SQLSTATE 23505 and the index's name). */
export function violacionUnica(err: unknown): { constraint: string | null } | null {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  if (!e || typeof e !== 'object' || e.code !== '23505') return null;
  return { constraint: typeof e.constraint === 'string' ? e.constraint : null };
}
