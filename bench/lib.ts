import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { COLUMNAS_CSV } from '../shared/rules/csv-deca';
import { baseDeDatosPropia } from '../test/support/postgres';
import { childEnv, ROOT } from '../test/support/processes';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Responses with a 2xx status. */
  ok: number;
}

/** Run autocannon (10 connections, 10 s unless overridden) and return requests/s and latency figures. */
export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 10, duration: 10, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, ok: r['2xx'] };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Start a TypeScript script (tsx) as a child process, with extra Node flags
 * (`--cpu-prof` is refused in NODE_OPTIONS); resolves once it prints `escuchando en <url>`.
 */
export function startScript(script: string, env: Record<string, string>, nodeArgs: string[] = [], cwd = ROOT): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { cwd, env: childEnv(env) });
    let out = '';
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /escuchando en (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        child.stdout.off('data', onData);
        resolve({
          url: m[1],
          pid: child.pid!,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${out}`)));
  });
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

/**
 * A PostgreSQL URL to a fresh database of its own, and a function that drops it.
 * A database rather than a schema, so the bench's tables, planner statistics
 * and pg_stat_database counters are its own and nothing else's.
 */
export async function postgresDatabaseUrl(url: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  return baseDeDatosPropia(url, prefix);
}

/** Run the CLI of the checkout at `cwd` (another revision, for a before/after in one run); resolves with its stdout. */
export function runCliIn(cwd: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { cwd, env: childEnv(env) });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args[0]} exited with ${code}: ${err}`))));
  });
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** A checkout of `rev` next to this one, sharing its node_modules (what a bench compares against). */
export function checkout(rev: string): { root: string; remove(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'deca-antes-'));
  execFileSync('git', ['worktree', 'add', '--detach', root, rev], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return {
    root,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** BENCH_ANTES, checked to be a commit of this repository (the run stops with a clear line if not). */
export function revisionAnterior(): string | undefined {
  const rev = process.env.BENCH_ANTES;
  if (!rev) return undefined;
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    console.error(`BENCH_ANTES=${rev} no es un commit de este repositorio (git log --oneline lo muestra).`);
    process.exit(2);
  }
  return rev;
}

const TICKS_PER_S = 100; // USER_HZ on Linux

/** utime+stime in seconds of every thread of `pid`, by thread id, with the thread's name. */
export function threadTimes(pid: number): Map<number, { name: string; s: number }> {
  const out = new Map<number, { name: string; s: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), { name, s: (Number(f[11]) + Number(f[12])) / TICKS_PER_S });
    } catch {
      /* thread ended */
    }
  }
  return out;
}

/**
 * CPU seconds of all processes named `postgres` (the backends serving the
 * pool, and the server's own). Counts other clients of the cluster too: run on a quiet machine.
 */
export function postgresSeconds(): number {
  let total = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
    } catch {
      /* process ended */
    }
  }
  return total;
}

/**
 * A CSV import of `decas` DeCAs × `envios` shipments, every row complete and
 * valid (one row per shipment, `;`, CRLF), with `ref_externa` `${prefijo}-N`.
 */
export function csvImportacion(prefijo: string, decas: number, envios: number, mercancia = 'Fruta de hueso'): string {
  const filas = [COLUMNAS_CSV.join(';')];
  for (let d = 0; d < decas; d++) {
    for (let e = 0; e < envios; e++) {
      const celdas: Record<string, string> = {
        ref_externa: `${prefijo}-${d}`,
        fecha_transporte: '25/11/2026',
        cargador: 'Frutas Peñalara, S.A.',
        cargador_nif: 'A58818501',
        cargador_domicilio: 'Camí Vell 3, Lleida',
        transportista: 'Transportes Núñez, S.L.',
        transportista_nif: 'B12345674',
        origen: `Almacén ${e + 1}, Lleida`,
        destino: `Cliente ${d}, Málaga`,
        mercancia,
        peso: '1.250,5',
        unidad: 'kg',
        matricula: '1234 BCD',
        conductor: 'José Muñoz',
      };
      filas.push(COLUMNAS_CSV.map((c) => celdas[c] ?? '').join(';'));
    }
  }
  return `${filas.join('\r\n')}\r\n`;
}
