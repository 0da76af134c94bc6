import { useEffect, useState } from 'preact/hooks';
import type { Deca } from '../../shared/schemas/deca';
import { contexto, sesionCaducada } from '../app/sesion';
import { useStore } from '../app/store';
import { ApiError } from '../data/api';
import { obtenerDocumentos } from '../data/consultas';

/**
 * Object URLs of an issued DeCA's PDF and QR: from the copy on the device
 * when it is the current version, else from the server (and then kept).
 * Revoked when the version changes or the screen goes; a 401 asks for a new
 * sign-in. `error` is what the load failed with, for the screen to word.
 */
export function useDocumentos(d: Deca | null): { urls: { pdf: string; qr: string } | null; error: unknown } {
  const ctx = useStore(contexto)!;
  const [urls, setUrls] = useState<{ pdf: string; qr: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const emitida = d !== null && d.estado !== 'pendiente';
  useEffect(() => {
    if (!d || !emitida) return;
    let vivo = true;
    let hechas: { pdf: string; qr: string } | null = null;
    setError(null);
    obtenerDocumentos(ctx.api, ctx.db, d).then(
      (doc) => {
        hechas = {
          pdf: URL.createObjectURL(new Blob([doc.pdf], { type: 'application/pdf' })),
          qr: URL.createObjectURL(new Blob([doc.qr], { type: 'image/png' })),
        };
        if (vivo) setUrls(hechas);
      },
      (err: unknown) => {
        if (!vivo) return;
        if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
        setError(err);
      },
    );
    return () => {
      vivo = false;
      if (hechas) {
        URL.revokeObjectURL(hechas.pdf);
        URL.revokeObjectURL(hechas.qr);
      }
    };
  }, [d?.id, d?.version, emitida]);
  return { urls, error };
}
