import { inlineStyle } from './html';

/**
 * One stylesheet for the public pages: black on white, large type and thick
 * banners, readable on a small phone in sunlight at the roadside. Light in
 * every colour scheme (`only light`: not even a browser's forced dark mode
 * inverts it), so a QR keeps its contrast and the page its colours.
 */
const BASE = `
  *{box-sizing:border-box}
  html{-webkit-text-size-adjust:100%;color-scheme:only light;color:#000;background:#fff}
  a{color:#0b3b8c}
  body{margin:0;font:19px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#000;background:#fff}
  main{max-width:44rem;margin:0 auto;padding:12px 14px 32px}
  h1{font-size:1em;margin:.2em 0 0}
  h2{font-size:1.05em;margin:.9em 0 .3em;padding-bottom:2px;border-bottom:3px solid #000;text-transform:uppercase;letter-spacing:.03em}
  .num{font-size:1.7em;font-weight:800;letter-spacing:.02em;margin:0}
  .sub{margin:.1em 0 .6em;font-size:.95em}
  .banner{padding:12px 14px;margin:10px 0;font-weight:800;font-size:1.15em;border:4px solid #000}
  .ok{background:#d8f5d0;border-color:#0a5c00}
  .bad{background:#ffd9d6;border-color:#a30000;color:#000}
  .warn{background:#fff1b8;border-color:#8a6100}
  .info{background:#e3ecff;border-color:#0b3b8c}
  .banner a{color:#000}
  .resumen{display:grid;grid-template-columns:1fr 1fr;gap:2px 12px;margin:6px 0 4px}
  .resumen .ancho{grid-column:1/-1}
  .resumen dt{margin-top:0}
  .resumen dd{font-size:1.5em;font-weight:800;line-height:1.25}
  .resumen .placas{white-space:nowrap;font-size:1.65em}
  .resumen .placas.l{font-size:1.3em}
  .resumen .placas.xl{font-size:1em}
  .resumen .conductor{font-size:1.05em}
  .version{margin-top:.3em}
  .firma p{margin:0}
  .firma p+p{font-weight:400;font-size:.8em;margin-top:4px}
  .veredicto{font-size:1.2em;line-height:1.2}
  .cambio{font-weight:700;font-size:1em}
  .huella{word-break:break-all;font-size:.85em}
  .cambio ul{margin:.4em 0 0;padding-left:1.1em;font-weight:400}
  .cambio del{color:#a30000}
  .cambio ins{text-decoration:none;font-weight:800}
  dl{margin:0}
  dt{font-weight:700;font-size:.8em;text-transform:uppercase;letter-spacing:.04em;margin-top:.5em}
  dd{margin:0;font-size:1.05em;word-wrap:break-word}
  .envio{border:2px solid #000;padding:6px 10px;margin:6px 0}
  .envio p{margin:0}
  .carga{font-size:1.25em;font-weight:800;line-height:1.3}
  .peso{white-space:nowrap}
  .nota{font-size:.9em}
  .btn{display:block;text-align:center;padding:14px;margin:12px 0;border:3px solid #000;background:#000;color:#fff;font-weight:800;text-decoration:none;font-size:1.1em;width:100%;font-family:inherit;cursor:pointer}
  .btn.sec{background:#fff;color:#000}
  .qr{display:block;width:100%;max-width:22rem;margin:8px auto;image-rendering:pixelated;border:10px solid #fff;outline:2px solid #000}
  footer{margin-top:24px;font-size:.8em}
  @media (min-width:48rem){body{font-size:18px}}
`;

export const PUBLIC_STYLE = inlineStyle(BASE);

/**
 * The same, with what only the pages with a form use (the other party's
 * completion form, the PDF check): the inspector's page, opened at the
 * roadside, does not carry it.
 */
const FORM = `${BASE}
  label{display:block;font-weight:700;margin-top:.8em}
  input,textarea,select{width:100%;font:inherit;padding:10px;border:2px solid #000;background:#fff;color:#000}
  fieldset{border:2px solid #000;margin:10px 0;padding:8px 10px}
  legend{font-weight:800;padding:0 4px}
  .err{color:#a30000;font-weight:700;font-size:.9em}
  .errs{border:4px solid #a30000;padding:8px 12px;background:#ffd9d6}
  .aviso-campo{display:block;font-weight:700;font-size:.9em;background:#fff1b8;border-left:6px solid #8a6100;padding:4px 8px;margin-top:4px}
  .avisos{border:4px solid #8a6100;padding:8px 12px;background:#fff1b8;margin:10px 0}
  .ro dd{color:#222}
  .row{display:grid;grid-template-columns:1fr 1fr;gap:8px}
`;
export const FORM_STYLE = inlineStyle(FORM);

/**
 * The consignee's signing page: the form's style and the signature pad (a
 * canvas the finger draws on without scrolling the page), and the choices
 * that only make sense for the answer chosen.
 */
export const FIRMA_STYLE = inlineStyle(`${FORM}
  .eleccion label{display:flex;gap:10px;align-items:center;font-weight:700;margin:.4em 0;padding:10px;border:2px solid #000}
  .eleccion input,.casilla input{width:28px;height:28px;flex:none;margin:0}
  .casilla{display:flex;gap:10px;align-items:center}
  .panel{position:relative;border:3px solid #000;background:#fff;margin-top:6px}
  .panel canvas{display:block;width:100%;aspect-ratio:5/2;touch-action:none;cursor:crosshair}
  .panel .linea{position:absolute;left:8%;right:8%;bottom:22%;border-bottom:2px dashed #777;pointer-events:none}
  [data-solo-con-js]{display:none}
  .js [data-solo-con-js]{display:block}
  .js [data-sin-js]{display:none}
  .js .oculto{display:none}
`);
/** Every public page's stylesheet, for the CSP: any of them may answer a public route. */
export const PUBLIC_STYLES = [PUBLIC_STYLE, FORM_STYLE, FIRMA_STYLE];
