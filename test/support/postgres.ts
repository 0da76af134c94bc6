import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** One statement on the server of `base`, on a connection of its own (creating and dropping databases and schemas). */
export async function enServidor(base: string, q: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

/**
 * A fresh database of its own on the server of `base` (empty, or a copy of
 * `plantilla`), its URL, and a function that drops it.
 */
export async function baseDeDatosPropia(base: string, prefijo: string, plantilla?: string): Promise<{ nombre: string; url: string; drop(): Promise<void> }> {
  const nombre = `${prefijo}_${randomBytes(6).toString('hex')}`;
  await enServidor(base, `create database "${nombre}"${plantilla ? ` template "${plantilla}"` : ''}`);
  const u = new URL(base);
  u.pathname = `/${nombre}`;
  return { nombre, url: u.toString(), drop: () => enServidor(base, `drop database if exists "${nombre}" with (force)`) };
}
