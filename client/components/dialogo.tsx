import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface PeticionConfirmacion {
  titulo: string;
  cuerpo: ComponentChildren;
  /** The button that goes ahead, named for what it does («Revocar clave live…»). */
  aceptar: string;
  cancelar?: string;
  peligro?: boolean;
}

/**
 * A <dialog> shown modal while mounted: `cerrar(r)` closes it and gives focus
 * back to where it was when it opened, first, so whatever the answer does next
 * (e.g. focus a field) wins; then `onCerrar(r)`.
 */
export function useDialogoModal<R>(onCerrar: (r: R) => void): { ref: RefObject<HTMLDialogElement | null>; cerrar: (r: R) => void } {
  const ref = useRef<HTMLDialogElement>(null);
  const previo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    previo.current = document.activeElement as HTMLElement | null;
    const d = ref.current!;
    d.showModal();
    return () => {
      if (d.open) d.close();
    };
  }, []);
  const cerrar = (r: R) => {
    ref.current?.close();
    if (previo.current?.isConnected) previo.current.focus();
    onCerrar(r);
  };
  return { ref, cerrar };
}

/**
 * A modal question before something that cannot be undone or that the user
 * should decide knowingly. The browser's <dialog> keeps focus inside and
 * closes with Escape; focus goes back to where it was when it opened.
 */
export function Confirmacion({ p, onCerrar }: { p: PeticionConfirmacion; onCerrar: (aceptado: boolean) => void }) {
  const { ref, cerrar } = useDialogoModal(onCerrar);
  return (
    <dialog
      ref={ref}
      class="dialogo"
      aria-labelledby="dialogo-titulo"
      onCancel={(ev) => {
        ev.preventDefault();
        cerrar(false);
      }}
    >
      <h2 id="dialogo-titulo">{p.titulo}</h2>
      <div class="dialogo-cuerpo">{p.cuerpo}</div>
      <div class="acciones">
        <button type="button" class={p.peligro ? 'peligro primario' : 'primario'} onClick={() => cerrar(true)}>
          {p.aceptar}
        </button>
        <button type="button" autofocus onClick={() => cerrar(false)}>
          {p.cancelar ?? 'Cancelar'}
        </button>
      </div>
    </dialog>
  );
}

/**
 * `confirmar(p)` resolves true when the user goes ahead; render `dialogo`
 * where the screen's content is.
 */
export function useConfirmacion(): { confirmar(p: PeticionConfirmacion): Promise<boolean>; dialogo: ComponentChildren } {
  const [abierta, setAbierta] = useState<{ p: PeticionConfirmacion; resolver: (ok: boolean) => void } | null>(null);
  return {
    confirmar: (p) => new Promise<boolean>((resolver) => setAbierta({ p, resolver })),
    dialogo: abierta ? (
      <Confirmacion
        p={abierta.p}
        onCerrar={(ok) => {
          setAbierta(null);
          abierta.resolver(ok);
        }}
      />
    ) : null,
  };
}
