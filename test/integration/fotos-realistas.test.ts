/**
 * POST /fotos over HTTP on photos as drivers take them
 * (test/fixtures/fotos-realistas.ts: the page lying on a table, a seat or a
 * dashboard, tilted, in perspective, under uneven coloured light, sometimes
 * sideways or upside down), one or more per layout: the NIFs, plates, date
 * and weights come back exactly, no printed label comes back as a value,
 * and each field read points at where it lies on the photo. The seeds are
 * not the bench's (bench/fotos.ts uses 5000 and up).
 */
import { describe, expect } from 'vitest';
import { FotoLeida } from '../../shared/schemas/fotos';
import { type Disposicion, esEtiquetaImpresa, type FotoRealista, fotoRealista, type Giro, hayFuenteManuscrita } from '../fixtures/fotos-realistas';
import { it } from '../support/fixtures';
import { herramienta } from '../support/herramientas';

const pdftoppm = herramienta('pdftoppm');

interface Caso {
  semilla: number;
  disposicion: Disposicion;
  /** The photo turned so (else as the seed has it: upright for these). */
  giro?: Giro;
  /** The fields this photo must give exactly, as the truth has them. */
  exactos: ('cargador_nif' | 'transp_nif' | 'matricula' | 'matricula_remolque' | 'fecha_transporte' | 'peso')[];
}

const CASOS: Caso[] = [
  { semilla: 301, disposicion: 'tabla', exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte', 'peso'] },
  { semilla: 302, disposicion: 'cmr', exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte'] },
  { semilla: 300, disposicion: 'correo', exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte', 'peso'] },
  { semilla: 303, disposicion: 'carta_porte', exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte', 'peso'] },
  { semilla: 300, disposicion: 'matricial', exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte', 'peso'] },
  // Upright, but the striped continuous form makes the orientation detector sure it is upside down: read badly so, it is read again as it lay.
  { semilla: 303, disposicion: 'matricial', giro: 0, exactos: ['cargador_nif'] },
  { semilla: 302, disposicion: 'manuscrito', exactos: ['matricula', 'fecha_transporte', 'peso'] },
  { semilla: 304, disposicion: 'carta_porte', giro: 90, exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte'] },
  { semilla: 301, disposicion: 'correo', giro: 180, exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte', 'peso'] },
  { semilla: 301, disposicion: 'tabla', giro: 270, exactos: ['cargador_nif', 'transp_nif', 'matricula', 'fecha_transporte', 'peso'] },
];

const casos = CASOS.filter((c) => c.disposicion !== 'manuscrito' || hayFuenteManuscrita()).map((c) => ({ ...c, vuelta: c.giro ?? 0 }));

/** The field of a proposal as the truth names it: the first shipment's weight for `peso`. */
function valor(p: FotoLeida['propuesta'], campo: Caso['exactos'][number]): unknown {
  if (campo === 'peso') return (p.envios as { peso?: number }[] | undefined)?.[0]?.peso;
  return p[campo];
}

describe.skipIf(!pdftoppm)('POST /fotos on photos as drivers take them', () => {
  it.for(casos)(
    'reads $disposicion (seed $semilla, turned $vuelta degrees) into the exact NIFs, plates, date and weight, with no label as a value and each field placed on the photo',
    { timeout: 90_000 },
    async ({ semilla, disposicion, giro, exactos }, { app, cuentaNueva: c }) => {
      const f: FotoRealista = await fotoRealista(semilla, { disposicion, pdftoppm: pdftoppm!, ...(giro !== undefined ? { toma: { giro } } : {}) });
      const form = new FormData();
      form.append('foto', new Blob([f.foto as BlobPart], { type: 'image/jpeg' }), 'albaran.jpg');
      const res = await fetch(`${app.url}/api/v1/fotos`, { method: 'POST', headers: { authorization: `Bearer ${c.live}` }, body: form });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      const leida = FotoLeida.parse(body);
      const v = f.verdad;
      const esperado = { ...v, peso: v.envios[0]!.peso };
      for (const campo of exactos) expect(valor(leida.propuesta, campo), campo).toBe(esperado[campo]);

      // No value is a label the note printed.
      const textos = [
        ...Object.entries(leida.propuesta).filter(([, x]) => typeof x === 'string'),
        ...((leida.propuesta.envios as Record<string, unknown>[] | undefined) ?? []).flatMap((e) => Object.entries(e).filter(([, x]) => typeof x === 'string')),
      ] as [string, string][];
      for (const [campo, texto] of textos) expect(esEtiquetaImpresa(texto), `${campo} «${texto}»`).toBe(false);

      // Each exact field read has its zone: four corners inside the photo, around a line (wider than tall as the
      // photo was taken upright, taller than wide when sideways).
      for (const campo of exactos) {
        const clave = campo === 'peso' ? 'envios[0].peso' : campo;
        const zona = leida.zonas[clave];
        expect(zona, `zona de ${clave}`).toHaveLength(4);
        const xs = zona!.map(([x]) => x ?? 0);
        const ys = zona!.map(([, y]) => y ?? 0);
        const ancho = Math.max(...xs) - Math.min(...xs);
        const alto = Math.max(...ys) - Math.min(...ys);
        if (giro === 90 || giro === 270) expect(alto, clave).toBeGreaterThan(ancho);
        else expect(ancho, clave).toBeGreaterThan(alto);
      }
    },
  );
});
