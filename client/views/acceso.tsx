import { useState } from 'preact/hooks';
import type { RegistroInput } from '../../shared/schemas/cuenta';
import { cierreReciente, entrar, registrar } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { PieFormulario, useEnvio, useMinimoContrasena } from '../components/formulario';

const SIN_RED = 'Sin conexión: para entrar hace falta red. Sus datos guardados no se pierden.';

type Modo = 'entrar' | 'registro' | 'reentrar';

/** Just after «Cerrar la cuenta»: what happened and what comes next. */
function CuentaCerradaAviso({ c }: { c: NonNullable<ReturnType<typeof cierreReciente.get>> }) {
  return (
    <div class="aviso ok" role="status" data-testid="cuenta-cerrada">
      <p>
        <strong>La cuenta{c.empresa ? ` de ${c.empresa}` : ''} está cerrada</strong> desde el {c.cerrada_at}.
      </p>
      <ul>
        <li>
          Hemos enviado a <strong>{c.exportacion.enviada_a}</strong> un enlace para descargar todos sus datos: un archivo ZIP con sus DeCA en CSV, cada PDF emitido y los datos de la cuenta. Sirve para
          una sola descarga completa y caduca el {c.exportacion.caduca_at}.
        </li>
        <li>Las claves de API, las sesiones y los dispositivos ya no funcionan. Lo que la ley no obliga a conservar se ha borrado, también de este dispositivo.</li>
        <li>
          Las {c.decas_conservadas} DeCA emitidas se conservan {c.conservacion}, como exige la Orden FOM/2861/2012, y sus enlaces públicos siguen funcionando en las inspecciones.
        </li>
      </ul>
      <p>
        <a href="/privacidad">Qué datos se guardan y cuánto tiempo</a>
      </p>
    </div>
  );
}

/** Sign in, sign up, and sign in again after the session expired (queued work is then replayed). */
export default function Acceso({ modo }: { modo: Modo }) {
  const [v, setV] = useState<Record<string, string>>({ rol: 'transportista' });
  const { campos, setCampos, error, setError, enviando, enviar: enviarCon } = useEnvio(SIN_RED);
  const registro = modo === 'registro';
  // The shared schemas (and zod) load on demand: the sign-in screen is the first screen of a new visitor.
  const esquemas = () => import('../data/esquemas');
  const min = useMinimoContrasena(registro); // offline: the hint waits, the submit says why
  const set = (k: string) => (x: string) => setV({ ...v, [k]: x });
  const cerrada = useStore(cierreReciente);

  async function enviar(ev: Event) {
    ev.preventDefault();
    setError(null);
    let m: typeof import('../data/esquemas');
    try {
      m = await esquemas();
    } catch {
      setError(SIN_RED);
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
    // Signed in, the app shows the screen whose address this is (a DeCA's link opened signed out
    // shows that DeCA; /entrar and /registro show the list).
    await enviarCon(() => (registro ? registrar(p.data as RegistroInput) : entrar({ email: v.email ?? '', password: v.password ?? '' })));
  }

  const titulo = registro ? 'Crear cuenta' : modo === 'reentrar' ? 'Volver a entrar' : 'Entrar';
  return (
    <section class={modo === 'reentrar' ? '' : 'tarjeta-acceso'}>
      {cerrada && modo === 'entrar' && <CuentaCerradaAviso c={cerrada} />}
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
        <PieFormulario error={error} enviando={enviando} texto={titulo} />
      </form>
      {modo === 'entrar' && (
        <>
          <p>
            <a href="/olvido">¿Ha olvidado la contraseña?</a>
          </p>
          <p>
            ¿No tiene cuenta? <a href="/registro">Crear cuenta</a>
          </p>
        </>
      )}
      {registro && (
        <p>
          ¿Ya tiene cuenta? <a href="/entrar">Entrar</a>
        </p>
      )}
      {modo !== 'reentrar' && (
        <p class="pista">
          <a href="/privacidad">Privacidad: qué datos se guardan y cuánto tiempo</a>
        </p>
      )}
    </section>
  );
}
