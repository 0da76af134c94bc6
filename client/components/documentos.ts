import { useEffect, useRef, useState } from 'preact/hooks';
import { useLiveQuery } from '../app/hooks';
import { contexto, sesionCaducada } from '../app/sesion';
import { useStore } from '../app/store';
import { ApiError } from '../data/api';
import { obtenerDocumentos } from '../data/consultas';
import { type CopiaCamino, copiaGuardada, tieneCopia } from '../data/copia-camino';
import type { DecaLocal } from '../data/db';

function soltar(u: { pdf: string; qr: string }): void {
  URL.revokeObjectURL(u.pdf);
  URL.revokeObjectURL(u.qr);
}

/**
 * Object URLs of an issued DeCA's PDF and QR, from the copy on the device
 * (the server's, or the one issued here with no coverage until the server's
 * is stored: copia-camino.ts), else fetched from the server (and then kept).
 * Watched live: the server's copy replaces the device's the moment it is
 * stored, and a copy on screen is never dropped for a failed fetch. Revoked
 * when the copy changes or the screen goes; a 401 asks for a new sign-in.
 * `error` is what a fetch failed with, for the screen to word.
 */
export function useDocumentos(rec: DecaLocal | null): { urls: { pdf: string; qr: string } | null; copia: CopiaCamino | null; error: unknown } {
  const ctx = useStore(contexto)!;
  const d = rec?.deca ?? null;
  const emitida = rec !== null && tieneCopia(rec);
  const copia = useLiveQuery(async () => (rec && emitida ? copiaGuardada(ctx.db, rec) : null), [ctx.db, rec?.clave, d?.id, d?.version, emitida]);
  const [urls, setUrls] = useState<{ pdf: string; qr: string } | null>(null);
  const [error, setError] = useState<unknown>(null);

  // None on the device: the server's, fetched once and kept (the live query then shows it).
  useEffect(() => {
    if (copia !== null || !d || !emitida) return;
    let vivo = true;
    setError(null);
    obtenerDocumentos(ctx.api, ctx.db, d).catch((err: unknown) => {
      if (!vivo) return;
      if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
      setError(err);
    });
    return () => {
      vivo = false;
    };
  }, [copia === null, d?.id, d?.version, emitida]);

  // A new copy (the server's replacing the device's) is shown once its QR is decoded, and only then is the one
  // on screen let go: the QR never blinks out, not even for a frame.
  const mostradas = useRef<{ pdf: string; qr: string } | null>(null);
  const clave = copia ? `${copia.fuente}:${copia.numero}:${copia.version}` : null;
  useEffect(() => {
    if (!copia) return;
    let vivo = true;
    const hechas = {
      pdf: URL.createObjectURL(new Blob([copia.pdf], { type: 'application/pdf' })),
      qr: URL.createObjectURL(new Blob([copia.qr], { type: copia.tipoQr })),
    };
    const img = new Image();
    img.src = hechas.qr;
    void img
      .decode()
      .catch(() => {})
      .then(() => {
        if (!vivo) return;
        const antes = mostradas.current;
        mostradas.current = hechas;
        setUrls(hechas);
        if (antes) setTimeout(() => soltar(antes), 1_000);
      });
    return () => {
      vivo = false;
      if (mostradas.current !== hechas) soltar(hechas);
    };
  }, [clave]);
  useEffect(
    () => () => {
      if (mostradas.current) soltar(mostradas.current);
    },
    [],
  );
  return { urls: copia ? urls : null, copia: copia ?? null, error: copia ? null : error };
}
