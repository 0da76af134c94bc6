import { fechaEs } from '../../../shared/rules/fechas';
import { pesoConUnidad } from '../../components/peso-con-unidad';
import type { Estado } from './estado';

const FALTA = <em class="falta">falta</em>;
const o = (x: string | undefined) => (x?.trim() ? x.trim() : FALTA);

/**
 * The DeCA as it will be issued, read-only and in large type, for a last look
 * before «Emitir»: the parties with their NIFs, the vehicle, the date, and
 * each shipment's goods, weight with its unit and route. What is missing
 * says «falta»; the warnings come right after it (the form's own list).
 */
export function ResumenDeca({ e }: { e: Estado }) {
  const v = e.v;
  const fecha = v.fecha_transporte?.trim();
  return (
    <section class="resumen" aria-labelledby="resumen-titulo" data-testid="resumen">
      <h2 id="resumen-titulo">Resumen de la DeCA</h2>
      <dl>
        <dt>Cargador</dt>
        <dd data-testid="resumen-cargador">
          {o(v.cargador_nombre)}
          <span class="nif">NIF {o(v.cargador_nif)}</span>
        </dd>
        <dt>Transportista</dt>
        <dd data-testid="resumen-transportista">
          {o(v.transp_nombre)}
          <span class="nif">NIF {o(v.transp_nif)}</span>
        </dd>
        <dt>Matrícula</dt>
        <dd data-testid="resumen-matriculas" class="matriculas">
          {o(v.matricula)}
          {v.matricula_remolque?.trim() ? ` + ${v.matricula_remolque.trim()}` : ''}
        </dd>
        <dt>Fecha del transporte</dt>
        <dd data-testid="resumen-fecha">{fecha ? fechaEs(fecha) : FALTA}</dd>
        {v.conductor_nombre?.trim() && (
          <>
            <dt>Conductor</dt>
            <dd>{v.conductor_nombre.trim()}</dd>
          </>
        )}
      </dl>
      <ol class="resumen-envios">
        {e.envios.map((en, i) => (
          <li key={i} data-testid="resumen-envio">
            {e.envios.length > 1 && <span class="pista">Envío {i + 1}</span>}
            <p class="carga">
              {o(en.naturaleza)} · {en.peso.trim() ? pesoConUnidad(en.peso, en.unidad) : FALTA}
            </p>
            <p class="ruta">
              {o(en.origen)} → {o(en.destino)}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
