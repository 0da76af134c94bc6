import { useEffect, useState } from 'preact/hooks';
import { fechaEs } from '../../shared/rules/fechas';
import { NOMBRE_ROL } from '../../shared/rules/roles';
import type { ClaveApi, ClaveCreada, Cuenta as CuentaDatos, Cuota as CuotaDatos, Entorno } from '../../shared/schemas/cuenta';
import type { Dispositivo } from '../../shared/schemas/dispositivo';
import { useEnLinea, useLiveQuery } from '../app/hooks';
import { cambiarEntorno, cambiarMiContrasena, cerrarMiCuenta, contexto, editarMiEmpresa, permitido, salir } from '../app/sesion';
import { useStore } from '../app/store';
import { elegirTema, type Tema, temaElegido } from '../app/tema';
import { Campo } from '../components/campo';
import { cuantos } from '../components/cuantos';
import { useConfirmacion } from '../components/dialogo';
import { useMinimoContrasena } from '../components/formulario';
import { SecretoUnaVez } from '../components/secreto';
import { type ApiError, llamarApp } from '../data/api';
import { guardarParaElCamino } from '../data/consultas';
import { AccesosEfti } from './cuenta/accesos-efti';

const f: typeof fetch = (...a) => fetch(...a);

const NOMBRE_ENTORNO: Record<Entorno, string> = { produccion: 'producción', pruebas: 'pruebas' };

/** API keys: created with a name, listed with their use, revoked only after a question that names the key. */
function Claves() {
  const enLinea = useEnLinea();
  const [claves, setClaves] = useState<ClaveApi[] | null>(null);
  // The key just made, shown once to copy, for as long as it is a key that works.
  const [nueva, setNueva] = useState<{ key: string; id: number } | null>(null);
  const [nombre, setNombre] = useState('');
  const [soloLectura, setSoloLectura] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { confirmar, dialogo } = useConfirmacion();
  const cargar = () =>
    llamarApp(f, 'listar_claves', {}).then(
      (r) => setClaves(r.data.claves),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    if (enLinea) void cargar();
  }, [enLinea]);
  async function crear(entorno: Entorno) {
    setError(null);
    try {
      const r = await llamarApp(f, 'crear_clave', { entorno, solo_lectura: soloLectura, ...(nombre.trim() ? { nombre: nombre.trim() } : {}) });
      setNueva({ key: r.data.key, id: r.data.clave.id });
      setNombre('');
      setSoloLectura(false);
      await cargar();
    } catch (e) {
      setError((e as ApiError).message);
    }
  }
  async function revocar(c: ClaveApi) {
    const ok = await confirmar({
      titulo: `¿Revocar la clave ${c.prefijo}…?`,
      cuerpo: (
        <p>
          Clave de <strong>{NOMBRE_ENTORNO[c.entorno]}</strong>
          {c.nombre ? (
            <>
              {' '}
              «<strong>{c.nombre}</strong>»
            </>
          ) : null}
          , {c.last_used_at ? `usada por última vez el ${fechaEs(c.last_used_at)}` : 'nunca usada'}. Los programas que la usan dejarán de funcionar al momento, en todos los servidores. No se puede
          deshacer.
        </p>
      ),
      aceptar: `Revocar ${c.prefijo}…`,
      peligro: true,
    });
    if (!ok) return;
    await llamarApp(f, 'revocar_clave', { id: c.id }).catch((e: Error) => setError(e.message));
    await cargar();
  }
  if (!enLinea) return <p class="pista">Las claves de API se gestionan con conexión.</p>;
  const activas = (claves ?? []).filter((c) => !c.revocada_at);
  const revocadas = (claves ?? []).filter((c) => c.revocada_at);
  // Revoked, the key just made is no longer one to copy: it shows among the revoked ones, open.
  const nuevaVale = nueva && !revocadas.some((c) => c.id === nueva.id);
  return (
    <>
      {dialogo}
      {nueva && nuevaVale && (
        <SecretoUnaVez valor={nueva.key} testId="clave-nueva" clase="aviso ok">
          <p>Copie la clave ahora: no se volverá a mostrar.</p>
        </SecretoUnaVez>
      )}
      {error && <p class="aviso error">{error}</p>}
      {activas.length === 0 ? (
        <p class="pista">No hay claves activas.</p>
      ) : (
        <ul class="claves" data-testid="claves">
          {activas.map((c) => (
            <li key={c.id} data-prefijo={c.prefijo}>
              <div>
                <strong>{c.nombre ?? 'Sin nombre'}</strong> · <code>{c.prefijo}…</code> · {NOMBRE_ENTORNO[c.entorno]}
                {c.solo_lectura ? ' · solo lectura' : ''}
                <div class="pista">
                  Creada el {fechaEs(c.created_at)} · {c.last_used_at ? `último uso ${fechaEs(c.last_used_at)}` : 'sin usar'}
                </div>
              </div>
              <button type="button" class="peligro" onClick={() => void revocar(c)} aria-label={`Revocar la clave ${c.prefijo}… de ${NOMBRE_ENTORNO[c.entorno]}`}>
                Revocar
              </button>
            </li>
          ))}
        </ul>
      )}
      {revocadas.length > 0 && (
        <details open={revocadas.some((c) => c.id === nueva?.id)}>
          <summary>Revocadas ({revocadas.length})</summary>
          <ul class="claves revocadas" data-testid="claves-revocadas">
            {revocadas.map((c) => (
              <li key={c.id} data-prefijo={c.prefijo}>
                <div>
                  <span class="insignia">Revocada</span> {c.nombre ?? 'Sin nombre'} · <code>{c.prefijo}…</code> · {NOMBRE_ENTORNO[c.entorno]}
                  <div class="pista">Revocada el {fechaEs(c.revocada_at)}: ya no abre la API.</div>
                </div>
              </li>
            ))}
          </ul>
        </details>
      )}
      <Campo path="clave_nombre" etiqueta="Nombre de la nueva clave (opcional)" valor={nombre} onInput={setNombre} pista="Para reconocerla: «ERP», «Integración almacén»…" max={100} />
      <label class="casilla">
        <input type="checkbox" checked={soloLectura} onChange={(e) => setSoloLectura((e.currentTarget as HTMLInputElement).checked)} /> Solo lectura (consultar, sin crear ni cambiar DeCA)
      </label>
      <div class="acciones">
        <button type="button" onClick={() => crear('produccion')}>
          Nueva clave de producción
        </button>
        <button type="button" onClick={() => crear('pruebas')}>
          Nueva clave de pruebas
        </button>
      </div>
    </>
  );
}

/**
 * The devices that issue with no coverage (their keys sign the QR an
 * inspector checks): an administrator sees the account's, anyone else their
 * own; giving one up stops it at once (a lost phone). This device is named.
 */
function Dispositivos() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [lista, setLista] = useState<Dispositivo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { confirmar, dialogo } = useConfirmacion();
  const propio = useLiveQuery(async () => ((await ctx.db.meta.get('dispositivo'))?.valor as { id: number | null } | undefined)?.id ?? null, [ctx.db]);
  const quedan = useLiveQuery(() => ctx.db.reservas.filter((r) => !r.usada && Date.parse(r.caduca_at) > Date.now()).count(), [ctx.db]);
  const cargar = () =>
    llamarApp(f, 'listar_dispositivos', {}).then(
      (r) => setLista(r.data.dispositivos),
      (e: Error) => setError(e.message),
    );
  useEffect(() => {
    if (enLinea) void cargar();
  }, [enLinea]);
  async function darDeBaja(d: Dispositivo) {
    const ok = await confirmar({
      titulo: `¿Dar de baja «${d.nombre}»?`,
      cuerpo: (
        <p>
          Dispositivo de {d.usuario}, registrado el {fechaEs(d.created_at)}. Dejará de emitir sin cobertura y sus números reservados no se usarán; lo que ya emitió sigue valiendo. Para volver a
          usarlo, su usuario inicia sesión en él de nuevo.
        </p>
      ),
      aceptar: 'Dar de baja',
      peligro: true,
    });
    if (!ok) return;
    await llamarApp(f, 'revocar_dispositivo', { id: d.id }).catch((e: Error) => setError(e.message));
    await cargar();
  }
  const activos = (lista ?? []).filter((d) => !d.revocado_at);
  return (
    <>
      {dialogo}
      <p class="pista">
        Sin conexión, «Emitir» usa un número reservado para el dispositivo y firma el QR con su clave: el agente comprueba la DeCA en su móvil al momento.
        {quedan !== undefined && ` Este dispositivo tiene ${cuantos(quedan, 'número reservado', 'números reservados')} en ${NOMBRE_ENTORNO[ctx.entorno]}.`}
      </p>
      {error && <p class="aviso error">{error}</p>}
      {!enLinea ? (
        <p class="pista">La lista de dispositivos se ve con conexión.</p>
      ) : activos.length === 0 ? (
        <p class="pista">Ningún dispositivo registrado.</p>
      ) : (
        <ul class="claves" data-testid="dispositivos">
          {activos.map((d) => (
            <li key={d.id}>
              <div>
                <strong>{d.nombre}</strong>
                {d.id === propio ? ' (este dispositivo)' : ''} · {d.usuario}
                <div class="pista">
                  Registrado el {fechaEs(d.created_at)} · huella <code>{d.huella}</code>
                </div>
              </div>
              <button type="button" class="peligro" onClick={() => void darDeBaja(d)} aria-label={`Dar de baja el dispositivo ${d.nombre} de ${d.usuario}`}>
                Dar de baja
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The company's data as shown on every DeCA; an administrator edits it (online). */
function Empresa({ cuenta, admin, editar }: { cuenta: CuentaDatos; admin: boolean; editar: boolean }) {
  const enLinea = useEnLinea();
  // Opened from a refusal that asks for the company's data (`cuenta_incompleta`): straight to the form.
  const [editando, setEditando] = useState(admin && editar);
  const [v, setV] = useState({ nombre: cuenta.nombre, nif: cuenta.nif, domicilio: cuenta.domicilio ?? '' });
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [estado, setEstado] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });

  async function guardar(ev: Event) {
    ev.preventDefault();
    const { EmpresaPatch, issuesToCampos } = await import('../data/esquemas');
    const cambios = Object.fromEntries((['nombre', 'nif', 'domicilio'] as const).filter((k) => v[k].trim() !== (cuenta[k] ?? '')).map((k) => [k, v[k]]));
    const p = EmpresaPatch.safeParse(cambios);
    if (!p.success) {
      setCampos(issuesToCampos(p.error.issues));
      setEstado(Object.keys(cambios).length === 0 ? 'No ha cambiado ningún dato.' : 'Revise los campos marcados.');
      return;
    }
    setEnviando(true);
    try {
      await editarMiEmpresa(p.data);
      setCampos({});
      setEditando(false);
      setEstado('Datos guardados: figurarán en las DeCA que emita a partir de ahora.');
    } catch (e) {
      setCampos((e as ApiError).campos ?? {});
      setEstado((e as Error).message);
    } finally {
      setEnviando(false);
    }
  }

  if (editando) {
    return (
      <form onSubmit={guardar} noValidate data-testid="empresa-form">
        <fieldset>
          <legend>Datos de la empresa</legend>
          <Campo path="nombre" etiqueta="Nombre o razón social" valor={v.nombre} onInput={set('nombre')} error={campos.nombre} max={200} />
          <Campo path="nif" etiqueta="NIF" valor={v.nif} onInput={set('nif')} error={campos.nif} />
          <Campo path="domicilio" etiqueta="Domicilio" valor={v.domicilio} onInput={set('domicilio')} error={campos.domicilio} max={300} pista="Figura en cada DeCA que emita." />
        </fieldset>
        {estado && (
          <p class="aviso error" role="alert">
            {estado}
          </p>
        )}
        <div class="acciones">
          <button type="submit" class="primario" disabled={enviando || !enLinea}>
            Guardar
          </button>
          <button
            type="button"
            onClick={() => {
              setEditando(false);
              setEstado(null);
              setCampos({});
            }}
          >
            Cancelar
          </button>
        </div>
        {!enLinea && <p class="pista">Los datos de la empresa se cambian con conexión.</p>}
      </form>
    );
  }
  return (
    <>
      {!cuenta.domicilio && (
        <p class="aviso error" role="alert" data-testid="falta-domicilio">
          Falta el domicilio de la empresa: las DeCA lo necesitan para emitirse.{admin ? ' Añádalo con «Editar datos de la empresa».' : ' Pida a un administrador que lo añada.'}
        </p>
      )}
      {estado && (
        <p class="aviso ok" role="status">
          {estado}
        </p>
      )}
      <dl class="datos">
        <dt>Empresa</dt>
        <dd>{cuenta.nombre}</dd>
        <dt>NIF</dt>
        <dd>{cuenta.nif}</dd>
        <dt>Domicilio</dt>
        <dd>{cuenta.domicilio ?? '—'}</dd>
        <dt>Lado</dt>
        <dd>{cuenta.rol === 'cargador' ? 'Cargador' : 'Transportista'}</dd>
        <dt>Plan</dt>
        <dd>{cuenta.plan === 'pro' ? 'Plan Pro' : 'Plan gratuito'}</dd>
      </dl>
      {admin && (
        <div class="acciones">
          <button
            type="button"
            onClick={() => {
              setV({ nombre: cuenta.nombre, nif: cuenta.nif, domicilio: cuenta.domicilio ?? '' });
              setEstado(null);
              setEditando(true);
            }}
          >
            Editar datos de la empresa
          </button>
        </div>
      )}
    </>
  );
}

/**
 * «Cambiar contraseña»: the current one and the new one (the sign-up rules);
 * the user's sessions on other devices end, this one goes on.
 */
function CambiarContrasena() {
  const enLinea = useEnLinea();
  const [abierto, setAbierto] = useState(false);
  const [v, setV] = useState({ actual: '', password: '' });
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [hecho, setHecho] = useState(false);
  const [enviando, setEnviando] = useState(false);
  const min = useMinimoContrasena(abierto);
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });

  async function guardar(ev: Event) {
    ev.preventDefault();
    setError(null);
    setEnviando(true);
    try {
      await cambiarMiContrasena(v.actual, v.password);
      setCampos({});
      setV({ actual: '', password: '' });
      setAbierto(false);
      setHecho(true);
    } catch (e) {
      setCampos((e as ApiError).campos ?? {});
      setError((e as Error).message);
    } finally {
      setEnviando(false);
    }
  }

  if (!abierto) {
    return (
      <>
        {hecho && (
          <p class="aviso ok" role="status">
            Contraseña cambiada: las sesiones de otros dispositivos se han cerrado.
          </p>
        )}
        <div class="acciones">
          <button
            type="button"
            onClick={() => {
              setHecho(false);
              setAbierto(true);
            }}
          >
            Cambiar contraseña
          </button>
        </div>
      </>
    );
  }
  return (
    <form onSubmit={guardar} noValidate data-testid="contrasena-form">
      <Campo path="actual" etiqueta="Contraseña actual" tipo="password" valor={v.actual} onInput={set('actual')} error={campos.actual} extra={{ autoComplete: 'current-password' }} />
      <Campo
        path="password"
        etiqueta="Contraseña nueva"
        tipo="password"
        valor={v.password}
        onInput={set('password')}
        error={campos.password}
        pista={`${min ? `Al menos ${min} caracteres. ` : ''}Se cerrarán las sesiones abiertas en otros dispositivos.`}
        extra={{ autoComplete: 'new-password' }}
      />
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      <div class="acciones">
        <button type="submit" class="primario" disabled={enviando || !enLinea}>
          Guardar la contraseña
        </button>
        <button
          type="button"
          onClick={() => {
            setAbierto(false);
            setError(null);
            setCampos({});
            setV({ actual: '', password: '' });
          }}
        >
          Cancelar
        </button>
      </div>
      {!enLinea && <p class="pista">La contraseña se cambia con conexión.</p>}
    </form>
  );
}

/**
 * «Cerrar la cuenta» (an administrator): what happens, said before; then
 * their password and the company's NIF typed again. The server exports the
 * data first and mails the link; the app then signs out and says what comes
 * next (client/app/sesion.ts `cerrarMiCuenta`).
 */
function CerrarCuenta({ nif, empresa }: { nif: string; empresa: string }) {
  const enLinea = useEnLinea();
  const [abierto, setAbierto] = useState(false);
  const [v, setV] = useState({ password: '', nif: '' });
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const set = (k: keyof typeof v) => (x: string) => setV({ ...v, [k]: x });

  async function cerrar(ev: Event) {
    ev.preventDefault();
    setError(null);
    setEnviando(true);
    try {
      await cerrarMiCuenta(v);
    } catch (e) {
      setCampos((e as ApiError).campos ?? {});
      setError((e as Error).message);
      setEnviando(false);
    }
  }

  const aviso = (
    <div class="aviso error" role="note" data-testid="cerrar-cuenta-aviso">
      <p>
        <strong>Cerrar la cuenta de {empresa} no se puede deshacer.</strong>
      </p>
      <ul>
        <li>Antes se prepara un archivo ZIP con todas sus DeCA (CSV), cada PDF emitido y los datos de la cuenta, y le enviamos por correo un enlace válido 7 días, para una descarga.</li>
        <li>Al momento dejan de funcionar todas las claves de API (sus integraciones), las sesiones de todos los usuarios y los dispositivos.</li>
        <li>Se borran los usuarios (salvo su correo, que identifica quién hizo cada DeCA), los webhooks, la agenda, las DeCA pendientes, el entorno de pruebas y el correo guardado.</li>
        <li>
          Las DeCA emitidas se conservan un año, como exige la Orden FOM/2861/2012, y sus enlaces públicos siguen funcionando. Más en <a href="/privacidad">Privacidad</a>.
        </li>
      </ul>
    </div>
  );

  if (!abierto) {
    return (
      <>
        <p>Da de baja la empresa en DeCA y se lleva sus datos.</p>
        <div class="acciones">
          <button type="button" class="peligro" onClick={() => setAbierto(true)}>
            Cerrar la cuenta…
          </button>
        </div>
      </>
    );
  }
  return (
    <form onSubmit={cerrar} noValidate data-testid="cerrar-cuenta-form">
      {aviso}
      <Campo path="cierre_password" etiqueta="Su contraseña" tipo="password" valor={v.password} onInput={set('password')} error={campos.password} extra={{ autoComplete: 'current-password' }} />
      <Campo path="cierre_nif" etiqueta={`Para confirmar, escriba el NIF de la empresa (${nif})`} valor={v.nif} onInput={set('nif')} error={campos.nif} extra={{ autoComplete: 'off' }} />
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      <div class="acciones">
        <button type="submit" class="peligro primario" disabled={enviando || !enLinea}>
          {enviando ? 'Preparando sus datos…' : 'Cerrar la cuenta definitivamente'}
        </button>
        <button
          type="button"
          disabled={enviando}
          onClick={() => {
            setAbierto(false);
            setError(null);
            setCampos({});
            setV({ password: '', nif: '' });
          }}
        >
          Cancelar
        </button>
      </div>
      {!enLinea && <p class="pista">La cuenta se cierra con conexión.</p>}
    </form>
  );
}

/** A month's use against its limit, as a bar (a limitless plan shows the count alone). */
function Uso({ que, usadas, limite }: { que: string; usadas: number; limite: number | null }) {
  return (
    <div class="uso">
      <p>
        {que}: <strong>{usadas}</strong>
        {limite === null ? ' (sin límite)' : ` de ${limite}`}
      </p>
      {limite !== null && <progress max={limite} value={Math.min(usadas, limite)} aria-label={`${que}: ${usadas} de ${limite}`} />}
    </div>
  );
}

const TEMAS: [Tema, string][] = [
  ['sistema', 'Sistema: como el resto del teléfono'],
  ['claro', 'Claro'],
  ['oscuro', 'Oscuro: para conducir de noche'],
];

/** Light or dark screen, on this device only («Mostrar al agente» and the QR stay light for the officer's scan). */
function ElegirTema() {
  const [tema, setTema] = useState<Tema>(temaElegido);
  return (
    <fieldset class="tema" data-testid="tema">
      <legend>Colores de la pantalla</legend>
      {TEMAS.map(([t, texto]) => (
        <label key={t}>
          <input
            type="radio"
            name="tema"
            value={t}
            checked={tema === t}
            onChange={() => {
              elegirTema(t);
              setTema(t);
            }}
          />
          {texto}
        </label>
      ))}
    </fieldset>
  );
}

/** The plan and this month's quota of the environment in use (online). */
function Cuota() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [cuota, setCuota] = useState<CuotaDatos | null>(null);
  useEffect(() => {
    if (!enLinea) return;
    ctx.api.llamar('ver_cuenta', {}).then(
      (r) => setCuota(r.data.cuenta.cuota),
      () => {},
    );
  }, [enLinea, ctx.entorno]);
  if (!cuota) return enLinea ? null : <p class="pista">La cuota del mes se ve con conexión.</p>;
  return (
    <div data-testid="cuota">
      <Uso que="DeCA este mes" usadas={cuota.usadas} limite={cuota.limite} />
      <Uso que="Lecturas de fotos este mes" usadas={cuota.fotos.usadas} limite={cuota.fotos.limite} />
      <p class="pista">El mes siguiente empieza el {fechaEs(cuota.reinicia)}.</p>
    </div>
  );
}

/** Account: company, plan, who is signed in, environment switch (test mode), data kept on this device, integrations, sign out, privacy and closing the account; each part as the role allows. */
export default function Cuenta({ query }: { query: URLSearchParams }) {
  const ctx = useStore(contexto)!;
  const { cuenta, usuario } = ctx.sesion;
  const pendientes = useLiveQuery(() => ctx.db.outbox.count(), [ctx.db]) ?? 0;
  const guardadas = useLiveQuery(() => ctx.db.documentos.count(), [ctx.db]) ?? 0;
  const [persistente, setPersistente] = useState<boolean | null>(null);
  const [camino, setCamino] = useState<string | null>(null);
  useEffect(() => {
    void navigator.storage?.persisted?.().then(setPersistente);
  }, []);
  return (
    <section>
      <h1 tabIndex={-1}>Cuenta</h1>
      <Empresa cuenta={cuenta} admin={permitido('usuarios')} editar={query.get('editar') === 'empresa'} />
      {permitido('plan') && (
        <>
          <h2>Plan y cuota</h2>
          <Cuota />
        </>
      )}
      <p>
        Usuario: <strong>{usuario.email}</strong> ({NOMBRE_ROL[usuario.rol].toLowerCase()})
      </p>
      {permitido('usuarios') && (
        <p>
          Quién usa la cuenta y qué puede hacer cada uno: <a href="/usuarios">Usuarios e invitaciones</a>.
        </p>
      )}

      <h2>Entorno</h2>
      <fieldset>
        <legend>Datos con los que trabaja</legend>
        {(['produccion', 'pruebas'] as const).map((e) => (
          <label key={e}>
            <input type="radio" name="entorno" value={e} checked={ctx.entorno === e} onChange={() => cambiarEntorno(e)} />
            {e === 'produccion' ? 'Producción: DeCA reales' : 'Pruebas: datos sin validez, separados de los reales'}
          </label>
        ))}
      </fieldset>

      <h2>En este dispositivo</h2>
      <ElegirTema />
      <ul>
        <li>{pendientes === 0 ? 'Todo enviado.' : `${cuantos(pendientes, 'cambio', 'cambios')} sin enviar.`}</li>
        <li>
          {guardadas} DeCA con PDF y QR guardados para verlas sin conexión (las emitidas de los últimos 7 días y los próximos 7).{' '}
          <button
            type="button"
            onClick={() =>
              guardarParaElCamino(ctx.api, ctx.db).then(
                (n) => setCamino(`Actualizado: ${n} DeCA.`),
                (e: Error) => setCamino(e.message),
              )
            }
          >
            Actualizar ahora
          </button>{' '}
          {camino}
        </li>
        <li>Almacenamiento persistente: {persistente === null ? '—' : persistente ? 'sí' : 'no concedido por el navegador (instale la aplicación para conseguirlo)'}</li>
      </ul>

      <h2>Emitir sin cobertura</h2>
      <Dispositivos />

      {permitido('integraciones') && (
        <>
          <h2>Claves de API</h2>
          <Claves />

          <h2>Webhooks</h2>
          <p>
            Avisos de cada cambio de sus DeCA a otro programa, firmados: <a href="/webhooks">Gestionar los webhooks</a>.
          </p>
        </>
      )}

      {permitido('gestion') && (
        <>
          <h2>Consultas de autoridades (eFTI)</h2>
          <AccesosEfti />
        </>
      )}

      <h2>Contraseña</h2>
      <CambiarContrasena />

      <h2>Sesión</h2>
      {pendientes > 0 && <p class="aviso">Hay cambios sin enviar: se quedan guardados en este dispositivo y se enviarán cuando vuelva a entrar.</p>}
      <button type="button" class="peligro" onClick={() => void salir()}>
        Cerrar sesión
      </button>

      <h2>Privacidad</h2>
      <p>
        Qué datos personales se guardan, para qué y durante cuánto tiempo: <a href="/privacidad">Privacidad</a>.
      </p>

      {usuario.rol === 'admin' && (
        <>
          <h2>Cerrar la cuenta</h2>
          <CerrarCuenta nif={cuenta.nif} empresa={cuenta.nombre} />
        </>
      )}
    </section>
  );
}
