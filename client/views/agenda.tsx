import { useState } from 'preact/hooks';
import { normalizarTexto } from '../../shared/rules/busqueda';
import { avisoNif } from '../../shared/rules/nif';
import type { TipoAgenda } from '../../shared/schemas/agenda';
import { useEnLinea, useLiveQuery } from '../app/hooks';
import { contexto, permitido } from '../app/sesion';
import { useStore } from '../app/store';
import { Campo } from '../components/campo';
import { useConfirmacion } from '../components/dialogo';
import { claveAgenda, descartarAgenda, entradasAgenda } from '../data/agenda';
import { avisoDeEntrada, ClaveRepetida, cambiarEnAgenda, eliminarDeAgenda, fusionarEnAgenda } from '../data/agenda-cambios';
import type { EntradaAgendaLocal, EntradaOutbox } from '../data/db';
import { ENTRADAS_AGENDA, issuesToCampos } from '../data/esquemas';
import { carrilAgenda, guardarEnAgenda } from '../data/outbox';

/** A field of the entry's form: its name, its label, and the choices when it is a list. */
type CampoAgenda = [string, string] | [string, string, [string, string][]];

/** Each type: its title, its fields (the first is its key), and how an entry reads in the list. */
const TIPOS: Record<TipoAgenda, { titulo: string; campos: CampoAgenda[]; resumen: (d: Record<string, string | null>) => string }> = {
  empresas: {
    titulo: 'Empresas',
    campos: [
      ['nif', 'NIF'],
      ['nombre', 'Nombre o razón social'],
      ['domicilio', 'Domicilio'],
      ['cp', 'Código postal'],
      ['municipio', 'Municipio'],
      ['provincia', 'Provincia o región'],
      ['pais', 'País (código ISO: ES, PT, FR…)'],
      [
        'lado',
        'Aparece como',
        [
          ['', 'Sin indicar'],
          ['cargador', 'Cargador'],
          ['transportista', 'Transportista'],
          ['ambos', 'Cargador y transportista'],
        ],
      ],
    ],
    resumen: (d) => [d.nif, d.domicilio].filter(Boolean).join(' · '),
  },
  vehiculos: {
    titulo: 'Vehículos',
    campos: [
      ['matricula', 'Matrícula'],
      ['matricula_remolque', 'Remolque habitual'],
      [
        'tipo_vehiculo',
        'Tipo de vehículo',
        [
          ['', 'Sin indicar'],
          ['rigido', 'Rígido'],
          ['articulado', 'Articulado'],
        ],
      ],
      ['autorizacion_especial', 'Autorización especial'],
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
const conId = (e: EntradaAgendaLocal | null | undefined): e is EntradaAgendaLocal & { id: number } => e?.id !== undefined;
/** One line that tells two entries apart in a choice: name, NIF or details, uses. */
const describir = (e: EntradaAgendaLocal) => [titular(e.tipo, e.datos), TIPOS[e.tipo].resumen(e.datos), `${e.usos} DeCA`].filter(Boolean).join(' · ');

/**
 * The address book, from this device's copy (so it works with no coverage):
 * search it, and (office and administrators) add, edit — its NIF, plate or
 * place too —, delete and merge entries. A change is saved here at once and
 * goes to the server through the outbox, like a DeCA's; a refusal stays on
 * the entry until it is fixed or discarded. An entry whose NIF has a wrong
 * check character is marked and the form does not suggest it until it is
 * fixed (or merged into the right one).
 */
export default function Agenda() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const { confirmar, dialogo } = useConfirmacion();
  const [tipo, setTipo] = useState<TipoAgenda>('empresas');
  const [q, setQ] = useState('');
  const [editando, setEditando] = useState<{ nueva: boolean; v: Record<string, string>; antes: EntradaAgendaLocal | null } | null>(null);
  const [fusion, setFusion] = useState<{ de: EntradaAgendaLocal & { id: number }; con: string; queda: 'de' | 'con' } | null>(null);
  const [campos, setCampos] = useState<Record<string, string>>({});
  const [estado, setEstado] = useState<string | null>(null);
  const puedeEditar = permitido('agenda');
  const entradas = useLiveQuery(() => entradasAgenda(ctx.db, tipo), [ctx.db, tipo]) ?? [];
  const cola = useLiveQuery(async () => (await ctx.db.outbox.toArray()).filter((e) => e.tipo === 'agenda'), [ctx.db]) ?? [];
  const porCarril = new Map<string, EntradaOutbox>(cola.map((e) => [e.clave, e]));
  const buscado = normalizarTexto(q);
  const halladas = buscado ? entradas.filter((e) => normalizarTexto(Object.values(e.datos).filter(Boolean).join(' ')).includes(buscado)) : entradas;
  const def = TIPOS[tipo];
  const enviado = enLinea ? '' : ' en este dispositivo: se enviará cuando haya conexión';
  // A refused change whose entry is not listed (a deletion, or a change whose entry went): shown apart, to discard.
  const listadas = new Set(entradas.map((e) => carrilAgenda(e.tipo, e.clave)));
  const huerfanas = cola.filter((e) => e.estado !== 'pendiente' && e.clave.startsWith(`agenda:${tipo}:`) && !listadas.has(e.clave));

  function abrir(antes: EntradaAgendaLocal | null) {
    setCampos({});
    setEstado(null);
    setFusion(null);
    setEditando({ nueva: !antes, antes, v: Object.fromEntries(def.campos.map(([k]) => [k, antes?.datos[k] ?? ''])) });
  }

  async function guardar(ev: Event) {
    ev.preventDefault();
    if (!editando) return;
    const antes = editando.antes;
    const datos = { ...(antes?.datos ?? {}), ...editando.v };
    const limpio = Object.fromEntries(Object.entries(datos).filter(([, v]) => v !== null && String(v).trim() !== ''));
    const p = ENTRADAS_AGENDA[tipo].safeParse(limpio);
    const comoTexto = (o: Record<string, unknown>) => Object.fromEntries(def.campos.map(([k]) => [k, o[k] === undefined || o[k] === null || o[k] === '' ? null : String(o[k]).trim()]));
    if (conId(antes)) {
      // A change names only what changed: an entry to revise can have its address fixed without touching its NIF.
      const valores = { ...antes.datos, ...comoTexto(p.success ? (p.data as Record<string, unknown>) : limpio) };
      const cambios = Object.fromEntries(def.campos.filter(([k]) => (valores[k] ?? null) !== (antes.datos[k] ?? null)).map(([k]) => [k, valores[k] ?? null]));
      const errores = p.success ? {} : Object.fromEntries(Object.entries(issuesToCampos(p.error.issues)).filter(([k]) => k in cambios));
      if (Object.keys(errores).length) return setCampos(errores);
      if (Object.keys(cambios).length === 0) {
        setEditando(null);
        return setEstado('Sin cambios.');
      }
      try {
        await cambiarEnAgenda(ctx.db, antes, valores, cambios);
      } catch (err) {
        if (!(err instanceof ClaveRepetida)) throw err;
        return setCampos({ [def.campos[0]![0]]: `Ya es de «${titular(tipo, err.otra.datos)}»: para dejar una sola, use «Fusionar».` });
      }
      setEditando(null);
      return setEstado(`«${titular(tipo, valores)}» guardado${enviado}.`);
    }
    if (!p.success) return setCampos(issuesToCampos(p.error.issues));
    const valores = comoTexto(p.data as Record<string, unknown>);
    const clave = claveAgenda(tipo, valores);
    const previa = antes ?? (await ctx.db.agenda.get([tipo, clave])) ?? null;
    await guardarEnAgenda(ctx.db, { tipo, clave, datos: valores, usos: previa?.usos ?? 0, ultimo: previa?.ultimo ?? null, ...(previa?.id !== undefined ? { id: previa.id } : {}) });
    setEditando(null);
    setEstado(`«${titular(tipo, valores)}» guardado${enviado}.`);
  }

  async function borrar(e: EntradaAgendaLocal) {
    const ok = await confirmar({
      titulo: `¿Borrar «${titular(e.tipo, e.datos)}» de la agenda?`,
      cuerpo: <p>Dejará de sugerirse en el formulario. Las DeCA hechas con estos datos no cambian; una DeCA nueva que los use lo volverá a añadir.</p>,
      aceptar: 'Borrar de la agenda',
      peligro: true,
    });
    if (!ok) return;
    await eliminarDeAgenda(ctx.db, e);
    setEditando(null);
    setEstado(`«${titular(e.tipo, e.datos)}» borrado${enviado}.`);
  }

  function abrirFusion(de: EntradaAgendaLocal & { id: number }) {
    setEditando(null);
    setEstado(null);
    setCampos({});
    // The likeliest other half first: the same name (a company typed twice, one with a wrong NIF).
    const mismo = entradas.find((o) => conId(o) && o.clave !== de.clave && normalizarTexto(titular(tipo, o.datos)) === normalizarTexto(titular(tipo, de.datos)));
    setFusion({ de, con: mismo?.clave ?? '', queda: avisoDeEntrada(de) ? 'con' : 'de' });
  }

  async function fusionar(ev: Event) {
    ev.preventDefault();
    if (!fusion) return;
    const otra = entradas.find((o) => o.clave === fusion.con);
    if (!conId(otra)) return setCampos({ fusion_con: 'Elija con qué entrada fusionarla' });
    const [queda, va] = fusion.queda === 'de' ? [fusion.de, otra] : [otra, fusion.de];
    await fusionarEnAgenda(ctx.db, queda, va);
    setFusion(null);
    setEstado(`Fusionadas: queda «${titular(tipo, queda.datos)}»${tipo === 'empresas' ? ` (${queda.datos.nif})` : ''} con ${queda.usos + va.usos} DeCA${enviado}.`);
  }

  const otraFusion = fusion ? entradas.find((o) => o.clave === fusion.con) : undefined;
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
              setFusion(null);
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
      {puedeEditar && !editando && !fusion && (
        <div class="acciones">
          <button type="button" onClick={() => abrir(null)}>
            Añadir a {def.titulo.toLowerCase()}
          </button>
        </div>
      )}
      {editando && (
        <form onSubmit={guardar} noValidate class="tarjeta" data-testid="agenda-formulario">
          <h2>{editando.nueva ? `Añadir a ${def.titulo.toLowerCase()}` : `Editar «${titular(tipo, editando.antes?.datos ?? {})}»`}</h2>
          {def.campos.map(([k, etiqueta, opciones], i) => (
            <Campo
              key={k}
              path={`agenda_${k}`}
              etiqueta={etiqueta}
              {...(opciones ? { opciones } : {})}
              valor={editando.v[k] ?? ''}
              onInput={(x) => setEditando({ ...editando, v: { ...editando.v, [k]: x } })}
              error={campos[k]}
              // The same warning as the DeCA form's while the NIF is typed.
              advertencia={k === 'nif' ? (avisoNif(editando.v[k] ?? '') ?? undefined) : undefined}
              // An entry the server does not have yet is named by its key: changing it would be another entry.
              extra={i === 0 && !editando.nueva && !conId(editando.antes) ? { readOnly: true } : {}}
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
      {fusion && (
        <form onSubmit={fusionar} noValidate class="tarjeta" data-testid="agenda-fusion">
          <h2>Fusionar «{titular(tipo, fusion.de.datos)}» con otra entrada</h2>
          <p class="pista">Queda una sola entrada, con los datos que elija; las DeCA de las dos se suman.</p>
          <Campo
            path="fusion_con"
            etiqueta="Fusionarla con"
            valor={fusion.con}
            onInput={(x) => setFusion({ ...fusion, con: x })}
            error={campos.fusion_con}
            opciones={[['', 'Elija una…'], ...entradas.filter((o) => conId(o) && o.clave !== fusion.de.clave).map((o): [string, string] => [o.clave, describir(o)])]}
          />
          {otraFusion && (
            <fieldset>
              <legend>Datos que se conservan</legend>
              {(
                [
                  ['de', fusion.de],
                  ['con', otraFusion],
                ] as const
              ).map(([k, e]) => (
                <label key={k}>
                  <input type="radio" name="fusion_queda" checked={fusion.queda === k} onChange={() => setFusion({ ...fusion, queda: k })} /> {describir(e)}
                  {avisoDeEntrada(e) ? ' (NIF a revisar)' : ''}
                </label>
              ))}
            </fieldset>
          )}
          <div class="acciones">
            <button type="submit" class="primario">
              Fusionar
            </button>
            <button type="button" onClick={() => setFusion(null)}>
              Cancelar
            </button>
          </div>
        </form>
      )}
      {huerfanas.map((p) => (
        <p key={p.seq} class="aviso error" role="alert">
          Un cambio de la agenda no se ha guardado en el servidor: {p.ultimoError}{' '}
          <button type="button" onClick={() => void descartarAgenda(ctx.api, ctx.db, p.seq!)}>
            Descartar el cambio
          </button>
        </p>
      ))}
      {halladas.length === 0 ? (
        <p class="pista">{buscado ? 'Nada coincide con la búsqueda.' : `Aún no hay ${def.titulo.toLowerCase()}: se añaden solos al crear DeCA.`}</p>
      ) : (
        <ul class="claves" data-testid="agenda">
          {halladas.slice(0, MOSTRADAS).map((e) => {
            const pendiente = porCarril.get(carrilAgenda(e.tipo, e.clave));
            const aviso = avisoDeEntrada(e);
            const nombre = titular(e.tipo, e.datos);
            return (
              <li key={e.clave} data-clave={e.clave}>
                <div>
                  <strong>{nombre}</strong>
                  {aviso && (
                    <>
                      {' '}
                      <span class="insignia rechazo">NIF a revisar</span>
                    </>
                  )}
                  <div class="pista">
                    {[def.resumen(e.datos), e.usos ? `${e.usos} DeCA` : 'sin usar aún'].filter(Boolean).join(' · ')}
                    {pendiente?.estado === 'pendiente' && ' · pendiente de enviar'}
                  </div>
                  {aviso && <p class="pista">{aviso} No se sugiere en el formulario hasta que lo corrija o la fusione con la buena.</p>}
                  {pendiente && pendiente.estado !== 'pendiente' && (
                    <p class="error-campo" role="alert">
                      No se ha guardado en el servidor: {pendiente.ultimoError}{' '}
                      <button type="button" onClick={() => void descartarAgenda(ctx.api, ctx.db, pendiente.seq!)}>
                        Descartar el cambio
                      </button>
                    </p>
                  )}
                </div>
                {puedeEditar && (
                  <div class="acciones">
                    <button type="button" onClick={() => abrir(e)} aria-label={`Editar ${nombre}`}>
                      Editar
                    </button>
                    {conId(e) && (
                      <>
                        <button type="button" onClick={() => abrirFusion(e)} aria-label={`Fusionar ${nombre} con otra`}>
                          Fusionar
                        </button>
                        <button type="button" onClick={() => void borrar(e)} aria-label={`Borrar ${nombre}`}>
                          Borrar
                        </button>
                      </>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {halladas.length > MOSTRADAS && <p class="pista">Y {halladas.length - MOSTRADAS} más: afine la búsqueda.</p>}
      {dialogo}
    </section>
  );
}
