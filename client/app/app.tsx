import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import ListaDecas from '../views/deca-list';
import { AvisoActualizacion, Layout } from './layout';
import { navegar, type Ruta, resolver, useModulo, useUbicacion } from './router';
import { contexto, sesion } from './sesion';
import { useStore } from './store';

/** An invitation's link opens signed out too (the person invited has no user yet). */
const INVITACION = /^\/invitacion\/([\w-]+)$/;
const cargarInvitacion = () => import('../views/invitacion');
/** So does a password reset link, and «¿Ha olvidado la contraseña?». */
const RESTABLECER = /^\/restablecer\/([\w-]+)$/;
const cargarContrasena = () => import('../views/contrasena');

/** Screens other than the list load on demand: one chunk each (the first screen stays small). */
const RUTAS: Ruta[] = [
  { patron: /^\/decas\/nueva$/, cargar: () => import('../views/deca-form') },
  { patron: /^\/decas\/([^/]+)\/(editar|sustituir)$/, cargar: () => import('../views/deca-form') },
  { patron: /^\/decas\/([^/]+)\/agente$/, cargar: () => import('../views/agente') },
  { patron: /^\/decas\/([^/]+)\/control$/, cargar: () => import('../views/control') },
  { patron: /^\/decas\/([^/]+)\/entrega$/, cargar: () => import('../views/entrega') },
  { patron: /^\/decas\/([^/]+)$/, cargar: () => import('../views/deca-detail') },
  { patron: /^\/cuenta$/, cargar: () => import('../views/cuenta') },
  { patron: /^\/importar$/, cargar: () => import('../views/importar') },
  { patron: /^\/fotos$/, cargar: () => import('../views/fotos') },
  { patron: /^\/webhooks$/, cargar: () => import('../views/webhooks') },
  { patron: /^\/usuarios$/, cargar: () => import('../views/usuarios') },
  { patron: /^\/agenda$/, cargar: () => import('../views/agenda') },
  { patron: INVITACION, cargar: cargarInvitacion },
  { patron: RESTABLECER, cargar: cargarContrasena },
];

function Pantalla() {
  const { path, query } = useUbicacion();
  const ctx = useStore(contexto);
  const r = path === '/' ? null : resolver(RUTAS, path);
  const mod = useModulo(r?.ruta.cargar ?? null);
  useEffect(() => {
    if (path === '/entrar' || path === '/registro' || path === '/olvido') navegar('/', { replace: true });
  }, [path]);
  // After a navigation, focus goes to the new screen's heading (screen readers announce it; Tab starts there).
  const primera = useRef(true);
  useEffect(() => {
    if (primera.current) {
      primera.current = false;
      return;
    }
    let intentos = 0;
    const t = setInterval(() => {
      const h = document.querySelector<HTMLElement>('.agente h1, main h1');
      if (!h && ++intentos < 40) return;
      clearInterval(t);
      if (!h || h.contains(document.activeElement)) return;
      if (!h.hasAttribute('tabindex')) h.tabIndex = -1;
      h.focus({ preventScroll: true });
    }, 25);
    return () => clearInterval(t);
  }, [path]);
  if (!ctx) return null;
  if (path === '/' || path === '/entrar' || path === '/registro' || path === '/olvido') return <ListaDecas params={[]} query={new URLSearchParams(query)} />;
  if (!r) {
    return (
      <section>
        <h1>Página no encontrada</h1>
        <p>
          Esta dirección no existe en la aplicación. <a href="/">Volver a la lista</a>
        </p>
      </section>
    );
  }
  if (mod instanceof Error) {
    return (
      <div class="aviso error" role="alert">
        <p>No se pudo cargar esta pantalla ({mod.message}). Compruebe la conexión y vuelva a intentarlo.</p>
      </div>
    );
  }
  if (!mod) return <p aria-busy="true">Cargando…</p>;
  const Vista = mod.default;
  return <Vista params={r.params} query={new URLSearchParams(query)} />;
}

/** Signed out: the sign-in or sign-up screen, or an invitation's link; each its own chunk. */
const cargarFuera = async (): Promise<(props: { path: string }) => JSX.Element> => {
  const { default: Acceso } = await import('../views/acceso');
  return ({ path }) => <Acceso modo={path === '/registro' ? 'registro' : 'entrar'} />;
};
const cargarInvitacionFuera = async (): Promise<(props: { path: string }) => JSX.Element> => {
  const { default: Invitacion } = await cargarInvitacion();
  return ({ path }) => <Invitacion params={INVITACION.exec(path)?.slice(1) ?? []} />;
};

const cargarContrasenaFuera = async (): Promise<(props: { path: string }) => JSX.Element> => {
  const { default: Restablecer, Olvido } = await cargarContrasena();
  return ({ path }) => (path === '/olvido' ? <Olvido /> : <Restablecer params={RESTABLECER.exec(path)?.slice(1) ?? []} />);
};

export function App() {
  const s = useStore(sesion);
  const { path } = useUbicacion();
  const fuera = useModulo(s ? null : INVITACION.test(path) ? cargarInvitacionFuera : path === '/olvido' || RESTABLECER.test(path) ? cargarContrasenaFuera : cargarFuera);
  if (!s) {
    if (!fuera || fuera instanceof Error) return <main>{fuera instanceof Error ? <p role="alert">No se pudo cargar la aplicación: recargue la página.</p> : <p aria-busy="true">Cargando…</p>}</main>;
    const Fuera = fuera;
    return (
      <>
        <main>
          <Fuera path={path} />
        </main>
        <AvisoActualizacion />
      </>
    );
  }
  return (
    <>
      <Layout>
        <Pantalla />
      </Layout>
      <AvisoActualizacion />
    </>
  );
}
