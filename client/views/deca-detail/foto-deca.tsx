import { useEffect, useMemo, useState } from 'preact/hooks';
import { useEnLinea, useLiveQuery, useUrlDeBlob } from '../../app/hooks';
import { contexto } from '../../app/sesion';
import { useStore } from '../../app/store';
import type { DecaLocal } from '../../data/db';
import { soltarFotosUsadas } from '../../data/fotos';

/**
 * The delivery-note photo a DeCA was made from, for the account's users:
 * the server's copy (GET /decas/{id}/foto, which answers the account only),
 * or this device's while there is no coverage or the DeCA has not reached the
 * server yet. Nothing at all when the DeCA was made from no photo (404) or
 * neither copy can be had.
 */
export function FotoDeDeca({ rec }: { rec: DecaLocal }) {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  // (Photos of DeCAs that are on the server and a week old leave the device first.)
  useEffect(() => void soltarFotosUsadas(ctx.db).catch(() => {}), [ctx.db]);
  const local = useLiveQuery(async () => (await ctx.db.fotos.where('deca').equals(rec.clave).first()) ?? null, [ctx.db, rec.clave]);
  // The same photo as long as its key stays: a new query result is not a new photo to load.
  const urlLocal = useUrlDeBlob(useMemo(() => local?.foto, [local?.clave]));
  // The server's copy failed (none, or no answer): this device's, if it has one.
  const [sinServidor, setSinServidor] = useState(false);
  const [cargada, setCargada] = useState<string | null>(null);
  const src = (enLinea && rec.id !== undefined && !sinServidor ? ctx.api.url('foto_deca', { id: rec.id }) : null) ?? urlLocal;
  if (!src) return null;
  return (
    <figure class="foto-deca" hidden={cargada !== src} data-testid="foto-deca">
      <h2>Foto del albarán</h2>
      <a href={src} target="_blank" rel="noopener">
        <img key={src} src={src} alt={`Foto del albarán de la que se hizo la DeCA ${rec.numero ?? ''}`.trim()} onLoad={() => setCargada(src)} onError={() => setSinServidor(true)} />
      </a>
    </figure>
  );
}
