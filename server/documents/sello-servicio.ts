/**
 * Which seal this deployment uses: the PKCS#12 of SEAL_P12 (a qualified
 * electronic seal certificate, what production should configure), or else
 * a self-signed one made at the first start and kept in the database, so
 * every server process on that database seals alike.
 */
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { DB } from '../db/schema';
import type { Logger } from '../log';
import { crearSellador, generarSelloAutofirmado, type MaterialSello, materialDesdeP12 } from './sello';

/** A seal that cannot be loaded stops the start with this, in Spanish, like a bad setting. */
export class SelloError extends Error {
  override name = 'SelloError';
}

export async function cargarSelloDelServicio(opts: { db: Kysely<DB>; config: Pick<Config, 'sealP12' | 'siteUrl' | 'production'>; ahora: Date; log: Logger }): Promise<MaterialSello> {
  const { db, config, log } = opts;
  let material: MaterialSello;
  let origen: 'SEAL_P12' | 'autofirmado';
  if (config.sealP12) {
    let archivo: Buffer;
    try {
      archivo = readFileSync(config.sealP12.path);
    } catch (error) {
      throw new SelloError(`SEAL_P12: no se puede leer ${config.sealP12.path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    try {
      material = materialDesdeP12(archivo, config.sealP12.password);
    } catch (error) {
      throw new SelloError(`SEAL_P12: ${(error as Error).message}`);
    }
    origen = 'SEAL_P12';
  } else {
    material = await selloGuardado(db, config.siteUrl, opts.ahora);
    origen = 'autofirmado';
  }
  let sellador;
  try {
    sellador = crearSellador(material);
  } catch (error) {
    throw new SelloError(`${origen === 'SEAL_P12' ? 'SEAL_P12' : 'sello del servicio'}: ${(error as Error).message}`);
  }
  const datos = { origen, titular: sellador.titular, huella: sellador.huella, caduca: sellador.caduca.toISOString() };
  if (sellador.caduca <= opts.ahora) log.error(datos, 'the seal certificate has expired: documents sealed with it will not validate');
  else if (sellador.caduca.getTime() - opts.ahora.getTime() < 30 * 86_400_000) log.warn(datos, 'the seal certificate expires within 30 days');
  else if (origen === 'autofirmado' && config.production) log.warn(datos, 'sealing with a self-signed certificate: set SEAL_P12 and SEAL_P12_PASSWORD to a qualified seal');
  else log.info(datos, 'seal loaded');
  return material;
}

/** The stored self-signed seal; the first process to start makes it (a race between processes keeps the first insert). */
async function selloGuardado(db: Kysely<DB>, siteUrl: string, ahora: Date): Promise<MaterialSello> {
  const leer = () => db.selectFrom('sello_servicio').select(['clave_pkcs8', 'certificado']).where('id', '=', 1).executeTakeFirst();
  let fila = await leer();
  if (!fila) {
    const nuevo = generarSelloAutofirmado(new URL(siteUrl).host, ahora);
    await db
      .insertInto('sello_servicio')
      .values({ id: 1, clave_pkcs8: nuevo.clavePkcs8, certificado: nuevo.certificados[0]!, created_at: ahora })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    fila = await leer();
    if (!fila) throw new SelloError('no se pudo guardar el sello del servicio');
  }
  return { clavePkcs8: new Uint8Array(fila.clave_pkcs8), certificados: [new Uint8Array(fila.certificado)] };
}
