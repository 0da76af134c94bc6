import { useEffect, useMemo, useState } from 'preact/hooks';
import { CSRF_HEADER } from '../../shared/api/rutas-app';
import { COLUMNAS_CSV, type ParteCsv, partirCsv } from '../../shared/rules/csv-deca';
import type { Importacion, ResultadoImportacion } from '../../shared/schemas/importar';
import { useEnLinea } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
import { useDialogoModal } from '../components/dialogo';
import { ConPermiso } from '../components/sin-permiso';

/** The template: the spec's columns in order, and one example row (two shipments of one DeCA would share its ref_externa). */
const PLANTILLA = `\ufeff${COLUMNAS_CSV.join(';')}\r\n${[
  'PED-0001',
  'Albarán 4711',
  '24/11/2026',
  'Frutas Peñalara, S.A.',
  'A58818501',
  'Camí Vell 3, 25001 Lleida',
  'Transportes Núñez, S.L.',
  'B12345674',
  'Lleida',
  'Málaga',
  'Piñones',
  '18.250,5',
  'kg',
  '',
  '1234 BCD',
  'R-5678-BBC',
  '',
  'José Ángel Muñoz',
  '600 000 000',
  '',
].join(';')}\r\n`;

const RESULTADO: Record<ResultadoImportacion['resultado'], string> = {
  creada: 'Creada',
  repetida: 'Ya importada (no se crea otra)',
  valida: 'Correcta',
  error: 'Con errores',
  no_guardada: 'No guardada',
};

/** What a DeCA of the file came to, in words: a correct one with warnings says so. */
const resultadoDe = (d: ResultadoImportacion) => (d.resultado === 'valida' && d.avisos.length > 0 ? 'Correcta, con avisos' : RESULTADO[d.resultado]);

/** A DeCA the check passed with nothing to review: what «Importar solo las correctas» takes. */
const correcta = (d: ResultadoImportacion) => d.errores.length === 0 && d.avisos.length === 0;
const clave = (d: ResultadoImportacion) => d.lineas.join(',');

/**
 * POST /importar with a CSV, reporting the upload's progress. XMLHttpRequest, because fetch
 * cannot tell how much of a request body has gone.
 */
function subir(url: string, archivo: Blob, nombre: string, progreso: (parte: number) => void): Promise<Importacion> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader(CSRF_HEADER, '1');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && progreso(e.loaded / e.total);
    xhr.onload = () => {
      const body = xhr.response as (Importacion & { error?: { mensaje: string } }) | null;
      if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body);
      else reject(new Error(body?.error?.mensaje ?? `El servidor respondió ${xhr.status}.`));
    };
    xhr.onerror = () => reject(new SinConexion('Sin conexión con el servidor: vuelva a intentarlo (importar dos veces el mismo archivo no duplica nada).'));
    const form = new FormData();
    form.append('csv', archivo, nombre);
    xhr.send(form);
  });
}

class SinConexion extends Error {}

/** DeCAs per request: the progress moves every few seconds, and a cut loses little. */
const POR_PARTE = 20;

/**
 * Import the file in parts of whole DeCAs (as the check grouped them), one
 * after another, each answer's line numbers put back as the file's. A part
 * is idempotent (the server keys each DeCA by its ref_externa or its
 * content), so one cut by the network is sent again, up to 3 times.
 */
async function importarPorPartes(url: string, archivo: File, grupos: number[][], progreso: (hecho: number) => void): Promise<Importacion> {
  const partes = partirCsv(new Uint8Array(await archivo.arrayBuffer()), grupos, POR_PARTE);
  const total: Importacion = { validar: false, creados: 0, repetidos: 0, errores: 0, decas: [] };
  const aFichero = (p: ParteCsv, l: number) => p.lineas.get(l) ?? l;
  for (const [i, p] of partes.entries()) {
    let r: Importacion | null = null;
    for (let intento = 1; !r; intento++) {
      try {
        r = await subir(url, new Blob([p.bytes as BlobPart], { type: 'text/csv' }), archivo.name, (parte) => progreso((i + parte * 0.5) / partes.length));
      } catch (err) {
        if (!(err instanceof SinConexion) || intento >= 3) throw err;
        await new Promise((res) => setTimeout(res, 1000 * intento));
      }
    }
    total.creados += r.creados;
    total.repetidos += r.repetidos;
    total.errores += r.errores;
    total.decas.push(...r.decas.map((d) => ({ ...d, lineas: d.lineas.map((l) => aFichero(p, l)), errores: d.errores.map((e) => ({ ...e, linea: aFichero(p, e.linea) })) })));
    progreso((i + 1) / partes.length);
  }
  return total;
}

type Fase = { tipo: 'elegir' } | { tipo: 'comprobando' } | { tipo: 'comprobado'; r: Importacion } | { tipo: 'importando'; parte: number } | { tipo: 'importado'; r: Importacion };

/** The answer to «some DeCAs have warnings»: all of them anyway, only the ones without, or neither. */
type Respuesta = 'todas' | 'correctas' | null;

/**
 * The question before importing DeCAs with warnings: their warnings, and
 * three ways on. Escape or «Volver» imports nothing.
 */
function PreguntaAvisos({ conAvisos, importables, correctas, onCerrar }: { conAvisos: ResultadoImportacion[]; importables: number; correctas: number; onCerrar: (r: Respuesta) => void }) {
  // As the app's other questions: closed, focus back where it was, then the answer.
  const { ref, cerrar } = useDialogoModal<Respuesta>(onCerrar);
  return (
    <dialog
      ref={ref}
      class="dialogo"
      aria-labelledby="pregunta-avisos"
      data-testid="pregunta-avisos"
      onCancel={(ev) => {
        ev.preventDefault();
        cerrar(null);
      }}
    >
      <h2 id="pregunta-avisos">{conAvisos.length === 1 ? 'Una DeCA tiene avisos' : `${conAvisos.length} DeCA tienen avisos`}</h2>
      <div class="dialogo-cuerpo">
        <p>Se pueden importar así, pero conviene revisar estos datos; en la aplicación se avisaría de lo mismo.</p>
        <ul class="lista-avisos">
          {conAvisos.map((d) => (
            <li key={clave(d)}>
              <strong>{lineasDe(d)}:</strong> {d.avisos.map((a) => a.mensaje).join(' ')}
            </li>
          ))}
        </ul>
      </div>
      <div class="acciones">
        <button type="button" class="primario" onClick={() => cerrar('todas')}>
          Importar {importables} con avisos
        </button>
        {correctas > 0 && (
          <button type="button" onClick={() => cerrar('correctas')}>
            Importar solo las correctas ({correctas})
          </button>
        )}
        <button type="button" autofocus onClick={() => cerrar(null)}>
          Volver
        </button>
      </div>
    </dialog>
  );
}

const lineasDe = (d: ResultadoImportacion) => (d.lineas.length > 1 ? `Líneas ${d.lineas[0]}–${d.lineas.at(-1)}` : `Línea ${d.lineas[0]}`);

/** CSV import: pick or drop a file, see it checked line by line, then import it with progress. */
function ImportarCsv() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [archivo, setArchivo] = useState<File | null>(null);
  const [fase, setFase] = useState<Fase>({ tipo: 'elegir' });
  const [error, setError] = useState<string | null>(null);
  const [encima, setEncima] = useState(false);
  const [preguntando, setPreguntando] = useState(false);

  async function comprobar(f: File) {
    setArchivo(f);
    setError(null);
    setFase({ tipo: 'comprobando' });
    try {
      setFase({ tipo: 'comprobado', r: await subir(ctx.api.url('importar_csv', { validar: '1' }), f, f.name, () => {}) });
    } catch (err) {
      setError((err as Error).message);
      setFase({ tipo: 'elegir' });
    }
  }

  /**
   * Import `elegidas` of the checked DeCAs; the rest of the file stays as the
   * check found it, shown as not saved.
   */
  async function importar(comprobado: Importacion, elegidas: ResultadoImportacion[]) {
    if (!archivo) return;
    setError(null);
    setFase({ tipo: 'importando', parte: 0 });
    try {
      const grupos = elegidas.map((d) => d.lineas);
      const r = await importarPorPartes(ctx.api.url('importar_csv', {}), archivo, grupos, (parte) => setFase({ tipo: 'importando', parte }));
      const hechas = new Map(r.decas.map((d) => [clave(d), d]));
      const decas = comprobado.decas.map((d) => hechas.get(clave(d)) ?? { ...d, resultado: d.errores.length ? ('error' as const) : ('no_guardada' as const) });
      const cuenta = (x: ResultadoImportacion['resultado']) => decas.filter((d) => d.resultado === x).length;
      setFase({ tipo: 'importado', r: { validar: false, creados: cuenta('creada'), repetidos: cuenta('repetida'), errores: cuenta('error'), decas } });
      void ctx.sync.drain(); // the new DeCAs show in the list at once
    } catch (err) {
      setError((err as Error).message);
      setFase({ tipo: 'elegir' });
    }
  }

  const plantilla = useMemo(() => URL.createObjectURL(new Blob([PLANTILLA], { type: 'text/csv;charset=utf-8' })), []);
  useEffect(() => () => URL.revokeObjectURL(plantilla), [plantilla]);
  const resultado = fase.tipo === 'comprobado' || fase.tipo === 'importado' ? fase.r : null;
  const conErrores = resultado ? resultado.decas.filter((d) => d.errores.length > 0) : [];
  const importables = resultado ? resultado.decas.filter((d) => d.errores.length === 0) : [];
  const conAvisos = importables.filter((d) => d.avisos.length > 0);
  const correctas = importables.filter(correcta);
  const conAvisosEnTabla = resultado ? resultado.decas.some((d) => d.avisos.length > 0) : false;

  /** One sentence: what the check found, or what the import did. */
  function resumen(comprobado: boolean, r: Importacion): string {
    const partes = comprobado
      ? [
          `${correctas.length} de ${r.decas.length} DeCA correctas`,
          conAvisos.length > 0 && `${conAvisos.length} con avisos (se pueden importar; revíselos)`,
          conErrores.length > 0 && `${conErrores.length} con errores (no se importan: corrija el archivo y vuelva a elegirlo)`,
        ]
      : [
          `${r.creados} creadas`,
          `${r.repetidos} ya importadas antes`,
          `${r.errores} con errores`,
          r.decas.some((d) => d.resultado === 'no_guardada') && `${r.decas.filter((d) => d.resultado === 'no_guardada').length} sin importar`,
        ];
    return `${partes.filter(Boolean).join(', ')}.`;
  }

  /** «Importar»: straight away when nothing has warnings, else after the question. */
  function pedirImportar(comprobado: Importacion) {
    if (conAvisos.length > 0) setPreguntando(true);
    else void importar(comprobado, importables);
  }

  return (
    <section>
      <h1 tabIndex={-1}>Importar DeCA desde un CSV</h1>
      <p class="explicacion">
        Una fila por envío; las filas con la misma referencia (columna <code>ref_externa</code>, o <code>referencia</code>, o el <code>numero</code> de un CSV exportado) son una sola DeCA. Fechas
        dd/mm/aaaa o aaaa-mm-dd. Separador «;» o «,», UTF-8 o Windows-1252, hasta 5 MB. Primero se comprueba el archivo y se le muestran los errores por línea y los avisos de cada DeCA; nada se guarda
        hasta que pulse «Importar».{' '}
        <a href={plantilla} download="plantilla-decas.csv">
          Descargar la plantilla
        </a>
      </p>
      {!enLinea && <p class="aviso">La importación necesita conexión.</p>}
      <label
        class={`soltar${encima ? ' encima' : ''}`}
        data-testid="soltar-csv"
        onDragOver={(e) => {
          e.preventDefault();
          setEncima(true);
        }}
        onDragLeave={() => setEncima(false)}
        onDrop={(e) => {
          e.preventDefault();
          setEncima(false);
          const f = e.dataTransfer?.files[0];
          if (f) void comprobar(f);
        }}
      >
        <span>{archivo ? `Archivo: ${archivo.name}` : 'Arrastre aquí el CSV o pulse para elegirlo'}</span>
        <input
          type="file"
          accept=".csv,text/csv"
          disabled={!enLinea || fase.tipo === 'comprobando' || fase.tipo === 'importando'}
          onChange={(e) => {
            const f = (e.currentTarget as HTMLInputElement).files?.[0];
            (e.currentTarget as HTMLInputElement).value = '';
            if (f) void comprobar(f);
          }}
        />
      </label>
      {error && (
        <p class="aviso error" role="alert">
          {error}
        </p>
      )}
      {fase.tipo === 'comprobando' && <p role="status">Comprobando el archivo…</p>}
      {fase.tipo === 'importando' && (
        <div role="status">
          <p>Creando y emitiendo las DeCA… {Math.round(fase.parte * 100)} %</p>
          <progress max={1} value={fase.parte} aria-label="Progreso de la importación" />
        </div>
      )}
      {resultado && (
        <>
          <p role="status" data-testid="resumen-importacion">
            {resumen(fase.tipo === 'comprobado', resultado)}
          </p>
          {fase.tipo === 'comprobado' && importables.length > 0 && (
            <p class="acciones">
              {/* With errors and no warnings, every DeCA it would import is a correct one: the button below says so. */}
              {(conAvisos.length > 0 || conErrores.length === 0) && (
                <button type="button" class="primario" onClick={() => pedirImportar(resultado)} disabled={!enLinea}>
                  Importar {importables.length} DeCA
                </button>
              )}
              {correctas.length > 0 && correctas.length < resultado.decas.length && (
                <button type="button" onClick={() => void importar(resultado, correctas)} disabled={!enLinea}>
                  Importar solo las correctas ({correctas.length})
                </button>
              )}
            </p>
          )}
          {preguntando && fase.tipo === 'comprobado' && (
            <PreguntaAvisos
              conAvisos={conAvisos}
              importables={importables.length}
              correctas={correctas.length}
              onCerrar={(r) => {
                setPreguntando(false);
                if (r === 'todas') void importar(resultado, importables);
                else if (r === 'correctas') void importar(resultado, correctas);
              }}
            />
          )}
          <table class="resultado-importacion" data-testid="resultado-importacion">
            <thead>
              <tr>
                <th scope="col">Líneas</th>
                <th scope="col">Referencia</th>
                <th scope="col">Resultado</th>
                <th scope="col">Errores</th>
                {conAvisosEnTabla && <th scope="col">Avisos</th>}
              </tr>
            </thead>
            <tbody>
              {resultado.decas.map((d) => (
                <tr key={clave(d)} data-resultado={d.resultado} data-avisos={d.avisos.length}>
                  <td>{d.lineas.length > 1 ? `${d.lineas[0]}–${d.lineas.at(-1)}` : d.lineas[0]}</td>
                  <td>{d.numero ? <a href={`/decas/${d.numero}`}>{d.numero}</a> : (d.ref_externa ?? d.referencia ?? '—')}</td>
                  <td>{resultadoDe(d)}</td>
                  <td>
                    {d.errores.length > 0 && (
                      <ul>
                        {d.errores.map((e, i) => (
                          <li key={i}>
                            Línea {e.linea}
                            {e.columna ? `, columna «${e.columna}»` : ''}: {e.mensaje}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  {conAvisosEnTabla && (
                    <td>
                      {d.avisos.length > 0 && (
                        <ul>
                          {d.avisos.map((a, i) => (
                            <li key={i}>{a.mensaje}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

export default function Importar() {
  return (
    <ConPermiso permiso="importar" titulo="Importar DeCA desde un CSV">
      <ImportarCsv />
    </ConPermiso>
  );
}
