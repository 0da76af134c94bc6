import { describe, expect, it } from 'vitest';
import { issuesToCampos } from '../../../shared/errors';
import { ControlInput, DecaInput, DecaListQuery } from '../../../shared/schemas/deca';
import { EVENTOS, WebhookInput } from '../../../shared/schemas/webhook';

/**
 * The limits the OpenAPI document declares for input (`maxLength`,
 * `maxItems`) come from these schemas: a value past one is refused, with a
 * Spanish message naming the field, and what was accepted before still is.
 */
const campos = (schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Parameters<typeof issuesToCampos>[0] } } }, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? {} : issuesToCampos(r.error!.issues);
};

describe('input limits', () => {
  it('a date is at most 10 characters once trimmed; padding around a valid one is still accepted', () => {
    expect(campos(DecaListQuery, { desde: '2026-11-25', hasta: ' 2026-11-30 ' })).toEqual({});
    expect(campos(DecaInput, { fecha_transporte: `2026-11-25${'0'.repeat(5000)}` })).toEqual({ fecha_transporte: 'Fecha no válida: use AAAA-MM-DD, p. ej. 2026-11-21' });
  });

  it('modificado_desde is at most 40 characters', () => {
    expect(campos(DecaListQuery, { modificado_desde: '2026-11-25T10:00:00.000+01:00' })).toEqual({});
    expect(campos(DecaListQuery, { modificado_desde: `2026-11-25T10:00:00.${'0'.repeat(30)}+01:00` })).toEqual({ modificado_desde: 'Use AAAA-MM-DD o AAAA-MM-DD HH:MM:SS' });
  });

  it('a roadside check code is at most 20 digits', () => {
    expect(campos(ControlInput, { codigo: ` ${'1'.repeat(20)} ` })).toEqual({});
    expect(campos(ControlInput, { codigo: '1'.repeat(21) })).toEqual({ codigo: 'El código del agente son solo cifras (entre 4 y 20)' });
  });

  it('a webhook subscribes to each event at most once: every event is a list of the limit’s length, one more is refused', () => {
    expect(campos(WebhookInput, { url: 'https://ejemplo.es/deca', eventos: [...EVENTOS] })).toEqual({});
    expect(campos(WebhookInput, { url: 'https://ejemplo.es/deca', eventos: [...EVENTOS, 'deca.creado'] })).toEqual({
      eventos: `Como mucho ${EVENTOS.length} eventos, cada uno una vez, o ["*"] para todos`,
    });
  });
});
