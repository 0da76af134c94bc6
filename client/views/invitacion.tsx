import { useEffect, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { NOMBRE_ROL, QUE_PUEDE } from '../../shared/rules/roles';
import type { InvitacionPublica } from '../../shared/schemas/cuenta';
import { Campo } from '../components/campo';
import { ApiError, NetworkError, pedirJson } from '../data/api';
import { aceptarInvitacion, sesion } from '../app/sesion';
import { useStore } from '../app/store';

const f: typeof fetch = (...a) => fetch(...a);

/**
 * The link of an invitation e-mail: who invites, as what, and a password to
 * join; then the app opens signed in. Signed in already as someone else, it
 * says so instead of mixing two users on one device.
 */
export default function Invitacion({ params }: { params: string[] }) {
  const token = params[0] ?? '';
  const yaDentro = useStore(sesion);
  const [inv, setInv] = useState<InvitacionPublica | Error | null>(null);
  const [password, setPassword] = useState('');
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const [min, setMin] = useState<number | null>(null);

  useEffect(() => {
    import('../data/esquemas').then((m) => setMin(m.PASSWORD_MIN), () => {});
  }, []);

  useEffect(() => {
    pedirJson<{ invitacion: InvitacionPublica }>(f, 'GET', `/app/api/invitacion/${encodeURIComponent(token)}`).then(
      (r) => setInv(r.data.invitacion),
      (e: Error) => setInv(e instanceof NetworkError ? new Error('Sin conexión: abra el enlace cuando tenga red.') : e),
    );
  }, [token]);

  async function enviar(ev: Event) {
    ev.preventDefault();
    setError(null);
    setEnviando(true);
    try {
      await aceptarInvitacion(token, password);
    } catch (err) {
      if (err instanceof ApiError) {
        setCampos(err.campos);
        setError(err.message);
      } else setError(err instanceof NetworkError ? 'Sin conexión: inténtelo cuando tenga red.' : String(err));
    } finally {
      setEnviando(false);
    }
  }

  if (yaDentro) {
    return (
      <section>
        <h1>Invitación a DeCA</h1>
        <p>
          Ha iniciado sesión como <strong>{yaDentro.usuario.email}</strong>. Para aceptar una invitación con otro correo, cierre antes la sesión en{' '}
          <a href="/cuenta">Cuenta</a> y vuelva a abrir el enlace.
        </p>
      </section>
    );
  }
  if (!inv) return <p aria-busy="true">Cargando la invitación…</p>;
  if (inv instanceof Error) {
    return (
      <section class="tarjeta-acceso">
        <h1>Invitación a DeCA</h1>
        <p role="alert" class="aviso error">
          {inv.message}
        </p>
        <p>
          <a href="/entrar">Entrar</a> si ya tiene usuario.
        </p>
      </section>
    );
  }
  return (
    <section class="tarjeta-acceso">
      <h1>Únase a {inv.empresa}</h1>
      <p>
        Le han invitado a DeCA como <strong>{NOMBRE_ROL[inv.rol].toLowerCase()}</strong>: podrá {QUE_PUEDE[inv.rol]}.
      </p>
      <form onSubmit={enviar} noValidate>
        <Campo path="email" etiqueta="Correo electrónico" tipo="email" valor={inv.email} onInput={() => {}} extra={{ readOnly: true, autoComplete: 'username' }} />
        <Campo
          path="password"
          etiqueta="Elija una contraseña"
          tipo="password"
          valor={password}
          onInput={setPassword}
          error={campos.password}
          pista={min ? `Al menos ${min} caracteres.` : undefined}
          extra={{ autoComplete: 'new-password' }}
        />
        {error && (
          <p class="error-campo" role="alert">
            {error}
          </p>
        )}
        <div class="acciones">
          <button type="submit" class="primario" disabled={enviando}>
            {enviando ? 'Un momento…' : 'Aceptar y entrar'}
          </button>
        </div>
      </form>
      <p>La invitación caduca el {fechaEs(inv.expires_at)}.</p>
    </section>
  );
}
