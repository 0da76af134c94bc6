import { useEffect, useState } from 'preact/hooks';
import type { RegistroInput } from '../../shared/schemas/cuenta';
import { ApiError, NetworkError } from '../data/api';
import { Campo } from '../components/campo';
import { entrar, registrar } from '../app/sesion';

type Modo = 'entrar' | 'registro' | 'reentrar';

/** Sign in, sign up, and sign in again after the session expired (queued work is then replayed). */
export default function Acceso({ modo }: { modo: Modo }) {
  const [v, setV] = useState<Record<string, string>>({ rol: 'transportista' });
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const registro = modo === 'registro';
  const [min, setMin] = useState<number | null>(null);
  // The shared schemas (and zod) load on demand: the sign-in screen is the first screen of a new visitor.
  const esquemas = () => import('../data/esquemas');
  useEffect(() => {
    if (registro) esquemas().then((m) => setMin(m.PASSWORD_MIN), () => {}); // offline: the hint waits, the submit says why
  }, [registro]);
  const set = (k: string) => (x: string) => setV({ ...v, [k]: x });

  async function enviar(ev: Event) {
    ev.preventDefault();
    setError(null);
    let m: typeof import('../data/esquemas');
    try {
      m = await esquemas();
    } catch {
      setError('Sin conexión: para entrar hace falta red. Sus datos guardados no se pierden.');
      return;
    }
    const { RegistroInput, SesionInput, issuesToCampos } = m;
    const schema = registro ? RegistroInput : SesionInput;
    const p = schema.safeParse(v);
    if (!p.success) {
      setCampos(issuesToCampos(p.error.issues));
      setError('Revise los campos marcados.');
      return;
    }
    setCampos({});
    setEnviando(true);
    try {
      // Signed in, the app shows the screen whose address this is (a DeCA's link opened signed out
      // shows that DeCA; /entrar and /registro show the list).
      if (registro) await registrar(p.data as RegistroInput);
      else await entrar({ email: v.email ?? '', password: v.password ?? '' });
    } catch (err) {
      if (err instanceof ApiError) {
        setCampos(err.campos);
        setError(err.message);
      } else if (err instanceof NetworkError) setError('Sin conexión: para entrar hace falta red. Sus datos guardados no se pierden.');
      else setError(String(err));
    } finally {
      setEnviando(false);
    }
  }

  const titulo = registro ? 'Crear cuenta' : modo === 'reentrar' ? 'Volver a entrar' : 'Entrar';
  return (
    <section class={modo === 'reentrar' ? '' : 'tarjeta-acceso'}>
      {modo !== 'reentrar' && (
        <>
          <p>
            <strong>DeCA</strong> · documentos de control del transporte de mercancías por carretera (Orden FOM/2861/2012, art. 6).
          </p>
          <h1>{titulo}</h1>
        </>
      )}
      <form onSubmit={enviar} noValidate>
        {registro && (
          <>
            <Campo path="nombre" etiqueta="Empresa (nombre o razón social)" valor={v.nombre ?? ''} onInput={set('nombre')} error={campos.nombre} extra={{ autoComplete: 'organization' }} />
            <Campo path="nif" etiqueta="NIF de la empresa" valor={v.nif ?? ''} onInput={set('nif')} error={campos.nif} />
            <Campo path="domicilio" etiqueta="Domicilio" valor={v.domicilio ?? ''} onInput={set('domicilio')} error={campos.domicilio} pista="Aparece en las DeCA que emita." />
            <Campo
              path="rol"
              etiqueta="Su empresa es"
              valor={v.rol ?? 'transportista'}
              onInput={set('rol')}
              opciones={[
                ['transportista', 'Transportista'],
                ['cargador', 'Cargador'],
              ]}
            />
          </>
        )}
        <Campo path="email" etiqueta="Correo electrónico" tipo="email" valor={v.email ?? ''} onInput={set('email')} error={campos.email} extra={{ autoComplete: 'email' }} />
        <Campo
          path="password"
          etiqueta="Contraseña"
          tipo="password"
          valor={v.password ?? ''}
          onInput={set('password')}
          error={campos.password}
          pista={registro && min ? `Al menos ${min} caracteres.` : undefined}
          extra={{ autoComplete: registro ? 'new-password' : 'current-password' }}
        />
        {error && (
          <p class="error-campo" role="alert">
            {error}
          </p>
        )}
        <div class="acciones">
          <button type="submit" class="primario" disabled={enviando}>
            {enviando ? 'Un momento…' : titulo}
          </button>
        </div>
      </form>
      {modo === 'entrar' && (
        <p>
          ¿No tiene cuenta? <a href="/registro">Crear cuenta</a>
        </p>
      )}
      {registro && (
        <p>
          ¿Ya tiene cuenta? <a href="/entrar">Entrar</a>
        </p>
      )}
    </section>
  );
}
