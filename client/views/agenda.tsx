import { useState } from 'preact/hooks';
import { normalizarTexto } from '../../shared/rules/busqueda';
import type { TipoAgenda } from '../../shared/schemas/agenda';
import { useEnLinea, useLiveQuery } from '../app/hooks';
import { contexto, permitido } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { claveAgenda, descartarAgenda, entradasAgenda } from '../data/agenda';
import type { EntradaAgendaLocal, EntradaOutbox } from '../data/db';
import { ENTRADAS_AGENDA, issuesToCampos } from '../data/esquemas';
import { carrilAgenda, guardarEnAgenda } from '../data/outbox';

/** Each type: its title, its fields (the first is its key), and how an entry reads in the list. */
const TIPOS: Record<TipoAgenda, { titulo: string; campos: [string, string][]; resumen: (d: Record<string, string | null>) => string }> = {
  empresas: {
    titulo: 'Empresas',
    campos: [
      ['nif', 'NIF'],
      ['nombre', 'Nombre o razón social'],
      ['domicilio', 'Domicilio'],
    ],
    resumen: (d) => [d.nif, d.domicilio].filter(Boolean).join(' · '),
  },
  vehiculos: {
    titulo: 'Vehículos',
    campos: [
      ['matricula', 'Matrícula'],
      ['matricula_remolque', 'Remolque habitual'],
      ['conductor_nombre', 'Conductor habitual'],
      ['conductor_tel', 'Teléfono del conductor'],
    ],
    resumen: (d) => [d.matricula_remolque && `remolque ${d.matricula_remolque}`, d.conductor_nombre, d.conductor_tel].filter(Boolean).join(' · '),
  },
  lugares: { titulo: 'Lugares', campos: [['texto', 'Lugar']], resumen: () => '' },
};
const ORDEN: TipoAgenda[] = ['empresas', 'vehiculos', 'lugares'];
const titular = (tipo: TipoAgenda, d: Record<string, string | null>) => (tipo === 'empresas' ? d.nombre : tipo === 'vehiculos' ? d.matricula : d.texto) ?? '';
const MOSTRADAS = 100;

/**
 * The address book, from this device's copy (so it works with no coverage):
 * search it, and (office and administrators) add or edit an entry. A change
 * is saved here at once and goes to the server through the outbox, like a
 * DeCA's; a refusal stays on the entry until it is fixed or discarded.
 */
export default function Agenda() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [tipo, setTipo] = useState<TipoAgenda>('empresas');
  const [q, setQ] = useState('');
  const [editando, setEditando] = useState<{ nueva: boolean; v: Record<string, string>; antes: EntradaAgendaLocal | null } | null>(null);
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [estado, setEstado] = useState<string | null>(null);
  const puedeEditar = permitido('agenda');
  const entradas = useLiveQuery(() => entradasAgenda(ctx.db, tipo), [ctx.db, tipo]) ?? [];
  const cola = useLiveQuery(async () => (await ctx.db.outbox.toArray()).filter((e) => e.tipo === 'agenda'), [ctx.db]) ?? [];
  const porCarril = new Map<string, EntradaOutbox>(cola.map((e) => [e.clave, e]));
  const buscado = normalizarTexto(q);
  const halladas = buscado ? entradas.filter((e) => normalizarTexto(Object.values(e.datos).filter(Boolean).join(' ')).includes(buscado)) : entradas;
  const def = TIPOS[tipo];

  function abrir(antes: EntradaAgendaLocal | null) {
    setCampos({});
    setEstado(null);
    setEditando({ nueva: !antes, antes, v: Object.fromEntries(def.campos.map(([k]) => [k, antes?.datos[k] ?? ''])) });
  }

  async function guardar(ev: Event) {
    ev.preventDefault();
    if (!editando) return;
    const datos = { ...(editando.antes?.datos ?? {}), ...editando.v };
    const limpio = Object.fromEntries(Object.entries(datos).filter(([, v]) => v !== null && String(v).trim() !== ''));
    const p = ENTRADAS_AGENDA[tipo].safeParse(limpio);
    if (!p.success) {
      setCampos(issuesToCampos(p.error.issues));
      return;
    }
    const valores = Object.fromEntries(Object.entries(p.data).map(([k, v]) => [k, v === undefined || v === null ? null : String(v)]));
    const clave = claveAgenda(tipo, valores);
    const previa = editando.antes ?? (await ctx.db.agenda.get([tipo, clave])) ?? null;
    await guardarEnAgenda(ctx.db, { tipo, clave, datos: valores, usos: previa?.usos ?? 0, ultimo: previa?.ultimo ?? null });
    setEditando(null);
    setEstado(`«${titular(tipo, valores)}» guardado${enLinea ? '' : ' en este dispositivo: se enviará cuando haya conexión'}.`);
  }

  return (
    <section>
      <h1 tabIndex={-1}>Agenda</h1>
      <p class="pista">Empresas, vehículos y lugares de sus DeCA: se sugieren al escribir en el formulario, también sin cobertura.</p>
      {/* biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, not a form's fieldset */}
      <div class="vistas" role="group" aria-label="Qué ver de la agenda">
        {ORDEN.map((t) => (
          <button
            key={t}
            type="button"
            aria-pressed={tipo === t}
            onClick={() => {
              setTipo(t);
              setEditando(null);
            }}
          >
            {TIPOS[t].titulo}
          </button>
        ))}
      </div>
      <Campo path="agenda_q" etiqueta={`Buscar en ${def.titulo.toLowerCase()}`} valor={q} onInput={setQ} tipo="search" extra={{ autoComplete: 'off' }} />
      {estado && (
        <p class="aviso ok" role="status">
          {estado}
        </p>
      )}
      {puedeEditar && !editando && (
        <div class="acciones">
          <button type="button" onClick={() => abrir(null)}>
            Añadir a {def.titulo.toLowerCase()}
          </button>
        </div>
      )}
      {editando && (
        <form onSubmit={guardar} noValidate class="tarjeta" data-testid="agenda-formulario">
          <h2>{editando.nueva ? `Añadir a ${def.titulo.toLowerCase()}` : `Editar «${titular(tipo, editando.antes?.datos ?? {})}»`}</h2>
          {def.campos.map(([k, etiqueta], i) => (
            <Campo
              key={k}
              path={`agenda_${k}`}
              etiqueta={etiqueta}
              valor={editando.v[k] ?? ''}
              onInput={(x) => setEditando({ ...editando, v: { ...editando.v, [k]: x } })}
              error={campos[k]}
              // The key (NIF, plate, place) names the entry: editing it would be another entry.
              extra={i === 0 && !editando.nueva ? { readOnly: true } : {}}
            />
          ))}
          <div class="acciones">
            <button type="submit" class="primario">
              Guardar
            </button>
            <button type="button" onClick={() => setEditando(null)}>
              Cancelar
            </button>
          </div>
        </form>
      )}
      {halladas.length === 0 ? (
        <p class="pista">{buscado ? 'Nada coincide con la búsqueda.' : `Aún no hay ${def.titulo.toLowerCase()}: se añaden solos al crear DeCA.`}</p>
      ) : (
        <ul class="claves" data-testid="agenda">
          {halladas.slice(0, MOSTRADAS).map((e) => {
            const pendiente = porCarril.get(carrilAgenda(e.tipo, e.clave));
            return (
              <li key={e.clave} data-clave={e.clave}>
                <div>
                  <strong>{titular(e.tipo, e.datos)}</strong>
                  <div class="pista">
                    {[def.resumen(e.datos), e.usos ? `${e.usos} DeCA` : 'sin usar aún'].filter(Boolean).join(' · ')}
                    {pendiente?.estado === 'pendiente' && ' · pendiente de enviar'}
                  </div>
                  {pendiente && pendiente.estado !== 'pendiente' && (
                    <p class="error-campo" role="alert">
                      No se ha guardado en el servidor: {pendiente.ultimoError}{' '}
                      <button type="button" onClick={() => void descartarAgenda(ctx.api, ctx.db, pendiente.seq!)}>
                        Descartar el cambio
                      </button>
                    </p>
                  )}
                </div>
                {puedeEditar && e.tipo !== 'lugares' && (
                  <button type="button" onClick={() => abrir(e)} aria-label={`Editar ${titular(e.tipo, e.datos)}`}>
                    Editar
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {halladas.length > MOSTRADAS && <p class="pista">Y {halladas.length - MOSTRADAS} más: afine la búsqueda.</p>}
    </section>
  );
}
