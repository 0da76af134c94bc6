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
  pista?: string | undefined;
  tipo?: string;
  opciones?: [string, string][];
  multilinea?: boolean;
  extra?: InputHTMLAttributes<HTMLInputElement>;
}

/** A labelled input whose error (local schema or server `campos`) is announced and tied to it. */
export function Campo({ path, etiqueta, valor, onInput, error, pista, tipo = 'text', opciones, multilinea, extra }: Props) {
  const id = idCampo(path);
  const desc = [error ? `${id}-error` : '', pista ? `${id}-pista` : ''].filter(Boolean).join(' ') || undefined;
  const comun = {
    id,
    name: path,
    value: valor,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': desc,
    onInput: (e: Event) => onInput((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="campo">
      <label for={id}>{etiqueta}</label>
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
      ) : (
        <input type={tipo as 'text'} {...comun} {...extra} />
      )}
      {error && (
        <p class="error-campo" id={`${id}-error`} data-campo={path}>
          {error}
        </p>
      )}
      {pista && (
        <p class="pista" id={`${id}-pista`}>
          {pista}
        </p>
      )}
    </div>
  );
}
