import autocannon from 'autocannon';
import pg from 'pg';

/** Run autocannon and return requests/s and latency figures. */
export async function load(opts: autocannon.Options): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ connections: 10, duration: 10, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** A PostgreSQL URL whose connections use a fresh schema, and a function that drops it. */
export async function postgresSchemaUrl(url: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create schema "${schema}"`);
  await c.end();
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: url });
      await d.connect();
      await d.query(`drop schema if exists "${schema}" cascade`);
      await d.end();
    },
  };
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
