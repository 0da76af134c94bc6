import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Importacion, ResultadoImportacion } from '../../shared/schemas/importar';
import { COLUMNAS_CSV } from '../../shared/rules/csv-deca';
import { CSRF_HEADER } from '../data/api';
import { useEnLinea } from '../app/hooks';
import { contexto } from '../app/sesion';
import { useStore } from '../app/store';
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

/**
 * POST /importar with the file, reporting the upload's progress. XMLHttpRequest, because fetch
 * cannot tell how much of a request body has gone. Importing the same file twice never duplicates
 * (the server keys each DeCA by its ref_externa or its content), so a retry after a cut is safe.
 */
function subir(url: string, archivo: File, progreso: (parte: number) => void): Promise<Importacion> {
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
    xhr.onerror = () => reject(new Error('Sin conexión con el servidor: vuelva a intentarlo (importar dos veces el mismo archivo no duplica nada).'));
    const form = new FormData();
    form.append('csv', archivo, archivo.name);
    xhr.send(form);
  });
}

type Fase = { tipo: 'elegir' } | { tipo: 'comprobando' } | { tipo: 'comprobado'; r: Importacion } | { tipo: 'importando'; parte: number } | { tipo: 'importado'; r: Importacion };

/** CSV import: pick or drop a file, see it checked line by line, then import it with progress. */
function ImportarCsv() {
  const ctx = useStore(contexto)!;
  const enLinea = useEnLinea();
  const [archivo, setArchivo] = useState<File | null>(null);
  const [fase, setFase] = useState<Fase>({ tipo: 'elegir' });
  const [error, setError] = useState<string | null>(null);
  const [encima, setEncima] = useState(false);
  const base = ctx.api.base;

  async function comprobar(f: File) {
    setArchivo(f);
    setError(null);
    setFase({ tipo: 'comprobando' });
    try {
      setFase({ tipo: 'comprobado', r: await subir(`${base}/importar?validar=1`, f, () => {}) });
    } catch (err) {
      setError((err as Error).message);
      setFase({ tipo: 'elegir' });
    }
  }

  async function importar() {
    if (!archivo) return;
    setError(null);
    setFase({ tipo: 'importando', parte: 0 });
    try {
      const r = await subir(`${base}/importar`, archivo, (parte) => setFase({ tipo: 'importando', parte }));
      setFase({ tipo: 'importado', r });
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

  return (
    <section>
      <h1 tabIndex={-1}>Importar DeCA desde un CSV</h1>
      <p class="explicacion">
        Una fila por envío; las filas con la misma <code>ref_externa</code> (o <code>referencia</code>) son una sola DeCA. Separador «;» o «,», UTF-8 o
        Windows-1252, hasta 5 MB. Primero se comprueba el archivo y se le muestran los errores por línea; nada se guarda hasta que pulse «Importar».{' '}
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
          <p>{fase.parte < 1 ? 'Enviando el archivo…' : 'Creando y emitiendo las DeCA…'}</p>
          <progress max={1} value={fase.parte < 1 ? fase.parte : undefined} aria-label="Progreso de la importación" />
        </div>
      )}
      {resultado && (
        <>
          <p role="status" data-testid="resumen-importacion">
            {fase.tipo === 'comprobado'
              ? conErrores.length
                ? `${conErrores.length} de ${resultado.decas.length} DeCA tienen errores: corrija el archivo y vuelva a elegirlo.`
                : `${resultado.decas.length} DeCA correctas: listas para importar.`
              : `${resultado.creados} creadas, ${resultado.repetidos} ya importadas antes, ${resultado.errores} con errores.`}
          </p>
          {fase.tipo === 'comprobado' && conErrores.length === 0 && (
            <button type="button" class="primario" onClick={() => void importar()} disabled={!enLinea}>
              Importar {resultado.decas.length} DeCA
            </button>
          )}
          <table class="resultado-importacion" data-testid="resultado-importacion">
            <thead>
              <tr>
                <th scope="col">Líneas</th>
                <th scope="col">Referencia</th>
                <th scope="col">Resultado</th>
                <th scope="col">Errores</th>
              </tr>
            </thead>
            <tbody>
              {resultado.decas.map((d) => (
                <tr key={d.lineas.join(',')} data-resultado={d.resultado}>
                  <td>{d.lineas.length > 1 ? `${d.lineas[0]}–${d.lineas.at(-1)}` : d.lineas[0]}</td>
                  <td>{d.numero ? <a href={`/decas/${d.numero}`}>{d.numero}</a> : (d.ref_externa ?? d.referencia ?? '—')}</td>
                  <td>{RESULTADO[d.resultado]}</td>
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
