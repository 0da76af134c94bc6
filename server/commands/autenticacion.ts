/**
 * Who is behind a request, for the doors that authenticate (REST, MCP, the
 * app's API): an API key or a web session becomes an `Actor`. The doors keep
 * what is theirs — where the secret came from, rate limits, cookies, CSRF —
 * and never read keys or sessions themselves.
 */
import type { Entorno } from '../../shared/schemas/cuenta';
import type { Services } from '../deps';
import { autenticarClave, marcarClaveUsada } from '../domain/accounts/api-keys';
import { cuentaCerrada, leerSesion } from '../domain/accounts/sessions';
import type { Actor, Canal } from '../domain/actor';

/** What a presented API key comes to in an environment. */
export type ClavePresentada =
  | { estado: 'desconocida' }
  | { estado: 'revocada' }
  /** A key of a closed account (closing revokes them all): the answer says so, and when. */
  | { estado: 'cuenta_cerrada'; mensaje: string }
  /** A valid key of the other environment. */
  | { estado: 'otro_entorno'; entorno: Entorno }
  | {
      estado: 'valida';
      actor: Actor & { keyId: number };
      /** Notes the use of the key (`last_used_at`, at most once a minute): call it once the request is let through. */
      anotarUso: () => Promise<void>;
    };

/** The API key `secreto` for a request to `entorno` through a door of `canal` (from this process's cache when it holds it). */
export async function autenticarPorClave(services: Services, secreto: string, entorno: Entorno, canal: Canal): Promise<ClavePresentada> {
  const found = secreto ? await autenticarClave(services, secreto) : null;
  if (!found) return { estado: 'desconocida' };
  if (found.account.cerrada_at) return { estado: 'cuenta_cerrada', mensaje: cuentaCerrada(found.account.nombre, found.account.cerrada_at).message };
  if (found.key.revocada_at) return { estado: 'revocada' };
  if (found.key.entorno !== entorno) return { estado: 'otro_entorno', entorno: found.key.entorno };
  const { key, account } = found;
  return {
    estado: 'valida',
    actor: {
      accountId: account.id,
      cuenta: account,
      entorno,
      canal,
      keyId: key.id,
      userId: null,
      rol: null,
      soloLectura: key.solo_lectura,
      etiqueta: `${key.prefijo}…`,
    },
    anotarUso: async () => {
      // A written use drops the key from every process's cache, this one's at once.
      if (await marcarClaveUsada(services.db, key, services.clock.now())) services.caches.claves.invalidate(key.id);
    },
  };
}

/** A live web session: the signed-in user as the actor in `entorno`, and until when the cookie must be renewed (null: no need). */
export interface SesionWeb {
  actor: Actor & { userId: number };
  renovadaHasta: Date | null;
}

/** The web session of a cookie's token (sliding its expiry), or null when it is unknown or expired. */
export async function autenticarSesion(services: Services, token: string, entorno: Entorno): Promise<SesionWeb | null> {
  const s = await leerSesion(services.db, token, services.clock.now());
  if (!s) return null;
  return {
    actor: {
      accountId: s.account.id,
      cuenta: s.account,
      entorno,
      canal: 'web',
      keyId: null,
      userId: s.user.id,
      rol: s.user.rol,
      soloLectura: false,
      etiqueta: s.user.email,
    },
    renovadaHasta: s.renewedUntil,
  };
}
