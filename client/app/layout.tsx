import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useEnLinea, useLiveQuery } from './hooks';
import { useModulo, useUbicacion } from './router';
import { cambiarEntorno, comprobarSesion, contexto, entorno, estadoSync, otraVersion, pedirOtraConfirmacion, sesion, sesionCaducada } from './sesion';
import { useStore } from './store';
import { actualizacion } from './sw-bridge';

const cargarAcceso = () => import('../views/acceso');

function EstadoRed() {
  const enLinea = useEnLinea();
  const ctx = useStore(contexto);
  const sync = useStore(estadoSync);
  const pendientes = useLiveQuery(async () => (ctx ? ctx.db.outbox.count() : 0), [ctx]) ?? 0;
  let texto = enLinea ? 'En línea' : 'Sin conexión';
  if (pendientes > 0) texto += ` · ${pendientes} sin enviar`;
  if (sync.fase === 'enviando') texto += ' · enviando…';
  return (
    <span class="estado-red" role="status" aria-live="polite" data-testid="estado-red">
      {texto}
    </span>
  );
}

/** Ask for a new sign-in when the session ended; queued work waits for it and is then replayed. */
function SesionCaducada() {
  const caducada = useStore(sesionCaducada);
  const ctx = useStore(contexto);
  const pendientes = useLiveQuery(async () => (ctx ? ctx.db.outbox.count() : 0), [ctx]) ?? 0;
  const mod = useModulo(caducada ? cargarAcceso : null);
  if (!caducada) return null;
  return (
    <div class="aviso error" role="alert">
      <p>
        <strong>Su sesión ha caducado.</strong>{' '}
        {pendientes > 0
          ? `Hay ${pendientes} cambio${pendientes === 1 ? '' : 's'} guardado${pendientes === 1 ? '' : 's'} en este dispositivo: inicie sesión para enviarlos.`
          : 'Inicie sesión para seguir.'}
      </p>
      {mod && !(mod instanceof Error) && <mod.default modo="reentrar" />}
    </div>
  );
}

/** A photo taken with no coverage has been read: say so wherever the user is. */
function PropuestaLista() {
  const ctx = useStore(contexto);
  const listas = useLiveQuery(async () => (ctx ? ctx.db.fotos.where('estado').equals('lista').count() : 0), [ctx]) ?? 0;
  if (!listas) return null;
  return (
    <div class="aviso" role="status" data-testid="propuesta-lista">
      <p>{listas === 1 ? 'La propuesta de la foto del albarán está lista.' : `Las propuestas de ${listas} fotos de albaranes están listas.`}</p>
      <a href="/fotos">Revisarla</a>
    </div>
  );
}

/**
 * Until the e-mail is confirmed the account issues only a few live DeCAs and
 * makes no live API keys: say so, and offer to send the link again. The test
 * environment is usable at once, so the notice is not shown there.
 */
function CorreoSinConfirmar() {
  const s = useStore(sesion);
  const ent = useStore(entorno);
  const [mensaje, setMensaje] = useState<string | null>(null);
  if (!s || s.cuenta.confirmada || ent === 'pruebas') return null;
  async function reenviar() {
    setMensaje('Enviando…');
    try {
      setMensaje(`Enlace enviado a ${await pedirOtraConfirmacion()}. Revise también la carpeta de correo no deseado.`);
    } catch (err) {
      // Confirmed meanwhile (from another device): the session refresh removes the notice.
      setMensaje((err as Error).message);
      void comprobarSesion();
    }
  }
  return (
    <div class="aviso" role="status" data-testid="sin-confirmar">
      <p>
        <strong>Confirme su correo.</strong> Le enviamos un enlace a {s.usuario.email}. Hasta entonces la cuenta emite solo unas pocas DeCA reales y no crea claves de API de producción; el entorno de
        pruebas ya se puede usar.
      </p>
      <button type="button" onClick={reenviar}>
        Reenviar el enlace
      </button>
      {mensaje && <p aria-live="polite">{mensaje}</p>}
    </div>
  );
}

export function Layout({ children }: { children: ComponentChildren }) {
  const { path } = useUbicacion();
  const ent = useStore(entorno);
  const recargar = useStore(otraVersion);
  const actual = (p: string) => ((p === '/' ? path === '/' : path.startsWith(p)) ? 'page' : undefined);
  return (
    <>
      <header class="cabecera">
        <a href="/">DeCA</a>
        {ent === 'pruebas' && <span class="insignia">PRUEBAS</span>}
        <EstadoRed />
      </header>
      {ent === 'pruebas' && (
        <div class="banda-pruebas" role="note" data-testid="banda-pruebas">
          Entorno de PRUEBAS: estos documentos no tienen validez.
          <button type="button" onClick={() => cambiarEntorno('produccion')}>
            Volver a producción
          </button>
        </div>
      )}
      {/* «Mostrar al agente» is the whole screen: nothing of the menu over or beside the QR. */}
      {!/^\/decas\/[^/]+\/agente$/.test(path) && (
        <nav class="nav" aria-label="Principal">
          <a href="/" aria-current={actual('/') && !path.startsWith('/decas/nueva') ? 'page' : undefined}>
            <span class="icono" aria-hidden="true">
              ☰
            </span>
            DeCAs
          </a>
          <a href="/decas/nueva" class="nueva" aria-current={actual('/decas/nueva')}>
            <span class="icono" aria-hidden="true">
              +
            </span>
            Nueva
          </a>
          <a href="/fotos" aria-current={actual('/fotos')}>
            <span class="icono" aria-hidden="true">
              ◉
            </span>
            Foto
          </a>
          <a href="/agenda" aria-current={actual('/agenda')}>
            <span class="icono" aria-hidden="true">
              ☷
            </span>
            Agenda
          </a>
          <a href="/cuenta" aria-current={actual('/cuenta')}>
            <span class="icono" aria-hidden="true">
              ⚙
            </span>
            Cuenta
          </a>
        </nav>
      )}
      <main id="contenido">
        {recargar && (
          <div class="aviso" role="alert">
            <p>La aplicación se ha actualizado en otra pestaña. Recargue esta para seguir (sus datos están guardados).</p>
            <button type="button" class="primario" onClick={() => location.reload()}>
              Recargar
            </button>
          </div>
        )}
        <SesionCaducada />
        {path !== '/fotos' && !path.startsWith('/decas/nueva') && <PropuestaLista />}
        <CorreoSinConfirmar />
        {children}
      </main>
    </>
  );
}

/** The "new version" prompt, shown on every screen (signed in or not) once an update is waiting. */
export function AvisoActualizacion() {
  const actualizar = useStore(actualizacion);
  if (!actualizar) return null;
  return (
    <div class="toast" role="status">
      <span>Hay una versión nueva de la aplicación.</span>
      <button type="button" onClick={actualizar}>
        Actualizar
      </button>
    </div>
  );
}
