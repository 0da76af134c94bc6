import { useEffect, useState } from 'preact/hooks';
import type { AccesoEfti } from '../../../shared/schemas/efti';
import { useEnLinea } from '../../app/hooks';
import { contexto } from '../../app/sesion';
import { useStore } from '../../app/store';

const fecha = (madrid: string) => `${madrid.slice(8, 10)}/${madrid.slice(5, 7)}/${madrid.slice(0, 4)} ${madrid.slice(11, 16)}`;

/** What an authority asked for, in a few words. */
function queConsulto(a: AccesoEfti): string {
  if (a.consulta === 'uil') return `el documento por su identificador eFTI${a.subsets.length ? ` (${a.subsets.join(', ')})` : ''}`;
  return `por la matrícula ${a.identificador ?? '—'}${a.pais ? ` (${a.pais})` : ''}`;
}

/**
 * Every access of an authority of the EU to the account's DeCA through a
 * national eFTI gate (GET /efti/accesos): when, which gate, what it asked
 * and which DeCA it was given, newest first, a page at a time. Online only:
 * the log is the server's.
 */
export function AccesosEfti() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [accesos, setAccesos] = useState<AccesoEfti[] | null>(null);
  const [siguiente, setSiguiente] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function cargar(despues?: string) {
    try {
      const r = await ctx.api.llamar('efti_accesos', { limite: 20, ...(despues ? { despues_de: despues } : {}) });
      setAccesos((antes) => [...(despues ? (antes ?? []) : []), ...r.data.accesos]);
      setSiguiente(r.data.siguiente);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }
  useEffect(() => {
    if (enLinea) void cargar();
  }, [enLinea, ctx.entorno]);
  return (
    <>
      <p class="pista">
        Desde julio de 2027 las autoridades de la UE pueden pedir los datos de un transporte a través de su pasarela eFTI nacional. Cada consulta que devolvió DeCA de esta cuenta queda aquí.
      </p>
      {error && <p class="aviso error">{error}</p>}
      {!enLinea && accesos === null ? (
        <p class="pista">La lista de consultas se ve con conexión.</p>
      ) : accesos === null ? null : accesos.length === 0 ? (
        <p class="pista" data-testid="accesos-efti-vacio">
          Ninguna autoridad ha consultado DeCA de esta cuenta.
        </p>
      ) : (
        <ul class="claves" data-testid="accesos-efti">
          {accesos.map((a) => (
            <li key={a.id}>
              <div>
                <strong>{fecha(a.fecha)}</strong> · pasarela {a.pasarela}
                <div class="pista">
                  Consultó {queConsulto(a)}: {a.decas.map((d) => `DeCA ${d.numero} (versión ${d.version})`).join(', ')}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {siguiente && (
        <button type="button" onClick={() => void cargar(siguiente)}>
          Ver más
        </button>
      )}
    </>
  );
}
