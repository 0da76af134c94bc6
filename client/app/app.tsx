import { useEffect, useState } from 'preact/hooks';

interface Sesion {
  usuario: { email: string };
  cuenta: { nombre: string };
}

/** Entry screen until the full PWA lands: who is signed in, and where the API lives. */
export function App() {
  const [sesion, setSesion] = useState<Sesion | null | undefined>(undefined);
  useEffect(() => {
    fetch('/app/api/sesion', { credentials: 'same-origin' })
      .then(async (r) => setSesion(r.ok ? ((await r.json()) as Sesion) : null))
      .catch(() => setSesion(null));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '2rem auto', padding: '0 1rem' }}>
      <h1>DeCA</h1>
      <p>Documentos de control del transporte de mercancías por carretera (Orden FOM/2861/2012, art. 6).</p>
      {sesion === undefined && <p>Cargando…</p>}
      {sesion && (
        <p>
          Sesión iniciada como <strong>{sesion.usuario.email}</strong> ({sesion.cuenta.nombre}).
        </p>
      )}
      {sesion === null && <p>Inicie sesión o cree una cuenta para empezar.</p>}
      <p>
        API: <code>/api/v1</code> (producción) y <code>/demo/api/v1</code> (pruebas).
      </p>
    </main>
  );
}
