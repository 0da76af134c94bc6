import { useEffect, useState } from 'preact/hooks';
import { ApiError, NetworkError, pedirJson } from '../data/api';

const f: typeof fetch = (...a) => fetch(...a);

/** What a form says when its request finds no network, unless it says something of its own. */
export const SIN_RED = 'Sin conexión: inténtelo cuando tenga red.';

/**
 * A form's sending state: the fields the server marked, the message above the
 * button and whether it is busy. `enviar` runs the request; a refusal marks
 * its fields and says why, no network says `sinRed`.
 */
export function useEnvio(sinRed = SIN_RED) {
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);

  async function enviar(peticion: () => Promise<void>): Promise<void> {
    setError(null);
    setEnviando(true);
    try {
      await peticion();
    } catch (err) {
      if (err instanceof ApiError) {
        setCampos(err.campos);
        setError(err.message);
      } else setError(err instanceof NetworkError ? sinRed : String(err));
    } finally {
      setEnviando(false);
    }
  }

  return { campos, setCampos, error, setError, enviando, enviar };
}

/** The end of a form: its message, if any, and the submit button, busy while it sends. */
export function PieFormulario({ error, enviando, texto }: { error: string | null; enviando: boolean; texto: string }) {
  return (
    <>
      {error && (
        <p class="error-campo" role="alert">
          {error}
        </p>
      )}
      <div class="acciones">
        <button type="submit" class="primario" disabled={enviando}>
          {enviando ? 'Un momento…' : texto}
        </button>
      </div>
    </>
  );
}

/**
 * The minimum length of a new password, for the hint: the shared schemas (and
 * zod) load on demand once `activo`; offline, the hint waits (null).
 */
export function useMinimoContrasena(activo = true): number | null {
  const [min, setMin] = useState<number | null>(null);
  useEffect(() => {
    if (activo)
      import('../data/esquemas').then(
        (m) => setMin(m.PASSWORD_MIN),
        () => {},
      );
  }, [activo]);
  return min;
}

/**
 * What an e-mailed link (`ruta`, on the app's API) offers before it is used:
 * null while it loads, an Error to show when it cannot be used or there is no network.
 */
export function useEnlace<R, T>(ruta: string, leer: (data: R) => T): T | Error | null {
  const [valor, setValor] = useState<T | Error | null>(null);
  useEffect(() => {
    pedirJson<R>(f, 'GET', ruta).then(
      (r) => setValor(leer(r.data)),
      (e: Error) => setValor(e instanceof NetworkError ? new Error('Sin conexión: abra el enlace cuando tenga red.') : e),
    );
  }, [ruta]);
  return valor;
}

/** An e-mailed link opened signed in as someone else: one user per device, so sign out first. */
export function OtraSesion({ titulo, email, para }: { titulo: string; email: string; para: string }) {
  return (
    <section>
      <h1>{titulo}</h1>
      <p>
        Ha iniciado sesión como <strong>{email}</strong>. Para {para}, cierre antes la sesión en <a href="/cuenta">Cuenta</a> y vuelva a abrir el enlace.
      </p>
    </section>
  );
}
