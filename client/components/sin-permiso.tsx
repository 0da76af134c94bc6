import type { ComponentChildren } from 'preact';
import { mensajeSinPermiso, type Permiso, puede } from '../../shared/rules/roles';
import { sesion } from '../app/sesion';
import { useStore } from '../app/store';

/**
 * A screen only some roles open: for the others, the same refusal the server
 * gives, in place of the screen (opened from a link or typed address).
 */
export function ConPermiso({ permiso, titulo, children }: { permiso: Permiso; titulo: string; children: ComponentChildren }) {
  const s = useStore(sesion);
  if (s && puede(s.usuario.rol, permiso)) return <>{children}</>;
  return (
    <section>
      <h1 tabIndex={-1}>{titulo}</h1>
      <p class="aviso" role="alert" data-testid="sin-permiso">
        {s ? mensajeSinPermiso(s.usuario.rol, permiso) : 'Inicie sesión para continuar.'}
      </p>
      <p>
        <a href="/">Volver a la lista</a>
      </p>
    </section>
  );
}
