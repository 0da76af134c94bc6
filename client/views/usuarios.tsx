import { useEffect, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { NOMBRE_ROL, QUE_PUEDE, ROLES_USUARIO, type RolUsuario } from '../../shared/rules/roles';
import type { Invitacion, UsuarioCuenta, UsuariosResponse } from '../../shared/schemas/cuenta';
import { useEnLinea } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { useConfirmacion } from '../components/dialogo';
import { ConPermiso } from '../components/sin-permiso';
import { ApiError, llamarApp } from '../data/api';

const f: typeof fetch = (...a) => fetch(...a);

const OPCIONES_ROL = ROLES_USUARIO.map((r) => [r, NOMBRE_ROL[r]] as [string, string]);

/**
 * The account's users (administrators only): each with their role, changed
 * or removed after a question; open invitations, withdrawn the same way; and
 * an invitation by e-mail with a role. Online only: it is the server's list.
 */
function GestionUsuarios() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [datos, setDatos] = useState<UsuariosResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [estado, setEstado] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [rol, setRol] = useState<RolUsuario>('conductor');
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [enviando, setEnviando] = useState(false);
  // The link of the invitation just made (the server answers it once): to copy or share where the e-mail does not reach.
  const [enlace, setEnlace] = useState<{ url: string; email: string } | null>(null);
  const [copiado, setCopiado] = useState(false);
  const { confirmar, dialogo } = useConfirmacion();
  const yo = ctx.sesion.usuario.id;

  const cargar = () =>
    llamarApp(f, 'listar_usuarios', {}).then(
      (r) => setDatos(r.data),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    if (enLinea) void cargar();
  }, [enLinea]);

  /** Run a change; its refusal (e.g. the last administrator) is shown, and the list is read again. */
  async function cambio(hecho: string, p: Promise<unknown>) {
    setError(null);
    setEstado(null);
    try {
      await p;
      setEstado(hecho);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
    await cargar();
  }

  async function invitar(ev: Event) {
    ev.preventDefault();
    setCampos({});
    setEnviando(true);
    try {
      const r = await llamarApp(f, 'invitar_usuario', { email, rol });
      setEnlace({ url: r.data.enlace, email: r.data.invitacion.email });
      setCopiado(false);
      setEstado(`Invitación enviada a ${r.data.invitacion.email}. El enlace caduca el ${fechaEs(r.data.invitacion.expires_at)}.`);
      setError(null);
      setEmail('');
      await cargar();
    } catch (e) {
      if (e instanceof ApiError) setCampos(e.campos);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setEnviando(false);
    }
  }

  async function cambiarRol(u: UsuarioCuenta, nuevo: RolUsuario) {
    const ok = await confirmar({
      titulo: `¿Cambiar a ${u.email} a ${NOMBRE_ROL[nuevo].toLowerCase()}?`,
      cuerpo: <p>Podrá {QUE_PUEDE[nuevo]}. Vale desde su siguiente acción, sin cerrar su sesión.</p>,
      aceptar: `Cambiar a ${NOMBRE_ROL[nuevo].toLowerCase()}`,
    });
    if (ok) await cambio(`${u.email} es ahora ${NOMBRE_ROL[nuevo].toLowerCase()}.`, llamarApp(f, 'cambiar_rol_usuario', { id: u.id, rol: nuevo }));
    else await cargar(); // the picker goes back to the role the user has
  }

  async function guardarMatriculas(u: UsuarioCuenta, texto: string) {
    const matriculas = texto
      .split(/[,;\n]/)
      .map((m) => m.trim())
      .filter(Boolean);
    setError(null);
    setEstado(null);
    try {
      // The plates as the server keeps them (`7777-hhh` → `7777HHH`), shown once the list is read again.
      const r = await llamarApp(f, 'cambiar_rol_usuario', { id: u.id, matriculas });
      const guardadas = r.data.usuario.matriculas;
      await cargar();
      setEstado(guardadas.length ? `${u.email} ve ahora las DeCA de ${guardadas.join(', ')} y las que hace.` : `${u.email} ve ahora solo las DeCA que hace.`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      await cargar();
    }
  }

  async function quitar(u: UsuarioCuenta) {
    const ok = await confirmar({
      titulo: `¿Quitar a ${u.email} de la cuenta?`,
      cuerpo: <p>Su sesión se cierra al momento en todos sus dispositivos y ya no podrá entrar. Las DeCA que hizo se quedan en la cuenta.</p>,
      aceptar: 'Quitar de la cuenta',
      peligro: true,
    });
    if (ok) await cambio(`${u.email} ya no es usuario de la cuenta.`, llamarApp(f, 'quitar_usuario', { id: u.id }));
  }

  async function anular(i: Invitacion) {
    const ok = await confirmar({
      titulo: `¿Anular la invitación a ${i.email}?`,
      cuerpo: <p>El enlace que recibió dejará de funcionar.</p>,
      aceptar: 'Anular la invitación',
      peligro: true,
    });
    if (ok) await cambio(`Invitación a ${i.email} anulada.`, llamarApp(f, 'anular_invitacion', { id: i.id }));
  }

  return (
    <section>
      <h1 tabIndex={-1}>Usuarios</h1>
      {dialogo}
      {!enLinea && <p class="pista">Los usuarios se gestionan con conexión.</p>}
      {estado && (
        <p class="aviso ok" role="status">
          {estado}
        </p>
      )}
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      {enlace && (
        <div class="aviso" data-testid="enlace-invitacion">
          <p>También puede darle el enlace usted mismo (por mensaje, en persona): es de un solo uso, solo para {enlace.email}, y no se volverá a mostrar.</p>
          <p>
            <input readOnly value={enlace.url} aria-label={`Enlace de la invitación a ${enlace.email}`} onFocus={(e) => e.currentTarget.select()} />
          </p>
          <div class="acciones">
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard?.writeText(enlace.url).then(
                  () => setCopiado(true),
                  () => {},
                )
              }
            >
              {copiado ? 'Enlace copiado' : 'Copiar el enlace'}
            </button>
            {'share' in navigator && (
              <button
                type="button"
                onClick={() => void navigator.share({ title: 'Invitación a DeCA', text: `Únase a la cuenta de DeCA con este enlace (para ${enlace.email}):`, url: enlace.url }).catch(() => {})}
              >
                Compartir
              </button>
            )}
          </div>
        </div>
      )}
      {datos && (
        <ul class="claves" data-testid="usuarios">
          {datos.usuarios.map((u) => (
            <li key={u.id} data-email={u.email}>
              <div>
                <strong>{u.email}</strong>
                {u.id === yo ? ' (usted)' : ''}
                <div class="pista">Desde el {fechaEs(u.created_at)}</div>
              </div>
              <select aria-label={`Función de ${u.email}`} value={u.rol} onChange={(e) => void cambiarRol(u, (e.currentTarget as HTMLSelectElement).value as RolUsuario)}>
                {OPCIONES_ROL.map(([v, t]) => (
                  <option key={v} value={v}>
                    {t}
                  </option>
                ))}
              </select>
              {u.rol === 'conductor' && <MatriculasDe u={u} guardar={(t) => guardarMatriculas(u, t)} />}
              {u.id !== yo && (
                <button type="button" class="peligro" onClick={() => void quitar(u)} aria-label={`Quitar a ${u.email}`}>
                  Quitar
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {datos && datos.invitaciones.length > 0 && (
        <>
          <h2>Invitaciones pendientes</h2>
          <ul class="claves" data-testid="invitaciones">
            {datos.invitaciones.map((i) => (
              <li key={i.id} data-email={i.email}>
                <div>
                  <strong>{i.email}</strong> · {NOMBRE_ROL[i.rol]}
                  <div class="pista">Caduca el {fechaEs(i.expires_at)}</div>
                </div>
                <button type="button" onClick={() => void anular(i)} aria-label={`Anular la invitación a ${i.email}`}>
                  Anular
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Invitar a alguien</h2>
      <form onSubmit={invitar} noValidate>
        <Campo path="invitar_email" etiqueta="Correo electrónico" tipo="email" valor={email} onInput={setEmail} error={campos.email} extra={{ autoComplete: 'off' }} />
        <Campo
          path="invitar_rol"
          etiqueta="Función"
          valor={rol}
          onInput={(v) => setRol(v as RolUsuario)}
          opciones={OPCIONES_ROL}
          error={campos.rol}
          pista={`${NOMBRE_ROL[rol]}: podrá ${QUE_PUEDE[rol]}.`}
        />
        <div class="acciones">
          <button type="submit" class="primario" disabled={enviando || !enLinea}>
            {enviando ? 'Enviando…' : 'Enviar invitación'}
          </button>
        </div>
      </form>
      <p class="pista">Recibirá un enlace por correo para elegir su contraseña; caduca a los 7 días.</p>
    </section>
  );
}

/**
 * The plates a driver drives: they see the DeCAs they make and those of these
 * vehicles (shared/rules/roles.ts), and no other DeCA of the account.
 */
function MatriculasDe({ u, guardar }: { u: UsuarioCuenta; guardar: (texto: string) => Promise<void> }) {
  const [texto, setTexto] = useState(u.matriculas.join(', '));
  useEffect(() => setTexto(u.matriculas.join(', ')), [u.matriculas.join(',')]);
  return (
    <form
      class="matriculas-conductor"
      onSubmit={(e) => {
        e.preventDefault();
        void guardar(texto);
      }}
    >
      <Campo
        path={`matriculas_${u.id}`}
        etiqueta={`Matrículas que conduce ${u.email}`}
        valor={texto}
        onInput={setTexto}
        pista="Separadas por comas. Verá las DeCA de estos vehículos además de las que haga."
        extra={{ autoComplete: 'off' }}
      />
      <button type="submit">Guardar matrículas</button>
    </form>
  );
}

export default function Usuarios() {
  return (
    <ConPermiso permiso="usuarios" titulo="Usuarios">
      <GestionUsuarios />
    </ConPermiso>
  );
}
