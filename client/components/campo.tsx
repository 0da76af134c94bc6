import type { InputHTMLAttributes } from 'preact';

/** `envios[0].destino` → a valid, stable element id. */
export function idCampo(path: string): string {
  return `f-${path.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
}

interface Props {
  path: string;
  etiqueta: string;
  valor: string;
  onInput: (v: string) => void;
  error?: string | undefined;
  /** A soft problem (check digit, plate, implausible load): shown as the user types, never blocking. */
  advertencia?: string | undefined;
  /** Read from a photo with little certainty: marked «revisar» (in words, not only in colour) until the user changes it. */
  revisar?: boolean | undefined;
  pista?: string | undefined;
  /** Maximum length: a counter shows how much is left once the text is long. */
  max?: number;
  /** Shown right after the input (the unit of a quantity). */
  sufijo?: string | undefined;
  tipo?: string;
  opciones?: [string, string][];
  multilinea?: boolean;
  extra?: InputHTMLAttributes<HTMLInputElement>;
}

/** A labelled input whose error (local schema or server `campos`) is announced and tied to it. */
export function Campo({ path, etiqueta, valor, onInput, error, advertencia, revisar, pista, max, sufijo, tipo = 'text', opciones, multilinea, extra }: Props) {
  const id = idCampo(path);
  const aviso = error ? undefined : advertencia;
  const contador = max !== undefined && valor.length >= max * 0.6;
  const desc =
    [revisar ? `${id}-revisar` : '', sufijo ? `${id}-sufijo` : '', error ? `${id}-error` : '', aviso ? `${id}-aviso` : '', pista ? `${id}-pista` : '', contador ? `${id}-contador` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  const comun = {
    id,
    name: path,
    value: valor,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': desc,
    'data-revisar': revisar ? '' : undefined,
    onInput: (e: Event) => onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="campo">
      <label for={id}>{etiqueta}</label>
      {revisar && (
        <span class="revisar" id={`${id}-revisar`}>
          revisar<span class="sr">: leído de la foto con poca seguridad</span>
        </span>
      )}
      {opciones ? (
        <select {...comun} onChange={comun.onInput}>
          {opciones.map(([v, t]) => (
            <option value={v} key={v}>
              {t}
            </option>
          ))}
        </select>
      ) : multilinea ? (
        <textarea {...comun} rows={3} />
      ) : sufijo ? (
        <span class="con-sufijo">
          <input type={tipo as 'text'} {...comun} {...extra} />
          <span class="sufijo" id={`${id}-sufijo`} data-testid="sufijo">
            {sufijo}
          </span>
        </span>
      ) : (
        <input type={tipo as 'text'} {...comun} {...extra} />
      )}
      {error && (
        <p class="error-campo" id={`${id}-error`} data-campo={path}>
          {error}
        </p>
      )}
      {aviso && (
        <p class="aviso-campo" id={`${id}-aviso`} data-aviso={path}>
          <span aria-hidden="true">⚠ </span>
          {aviso}
        </p>
      )}
      {pista && (
        <p class="pista" id={`${id}-pista`}>
          {pista}
        </p>
      )}
      {contador && (
        <p class={`pista contador ${valor.length > max ? 'excedido' : ''}`} id={`${id}-contador`} aria-live="polite">
          {valor.length} de {max} caracteres
        </p>
      )}
    </div>
  );
}
