import { sql } from 'kysely';
import { isoMadrid } from '../../../shared/rules/fechas';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { EventoEntrega } from '../../../shared/schemas/webhook';
import { CANALES } from '../../db/notify';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import type { Parte } from '../sentencia';

/** A fresh delivery id: `ev_` + 144 random bits (X-Deca-Entrega and the body's id). */
export function nuevoEntregaId(): string {
  return `ev_${randomToken(18)}`;
}

/** The JSON body of a delivery (spec: Events, «Body shape»), serialised once and sent byte for byte on every attempt. */
export function cuerpoEntrega(p: { id: string; evento: EventoEntrega; creadoAt: Date; entorno: Entorno; data: unknown }): string {
  return JSON.stringify({ id: p.id, evento: p.evento, creado_at: isoMadrid(p.creadoAt), entorno: p.entorno, data: p.data });
}

/**
 * Fan-out at event time, as parts of the statement that writes the events
 * (CTE `eventos`, returning their id and name): one delivery row per event
 * and active webhook subscribed to it, in the order to deliver, so a crash
 * after commit loses nothing; and the workers' wake-up, sent once this
 * commits, when there was any. Each delivery's id is made in the database
 * as nuevoEntregaId makes it (`ev_` + 18 strong random bytes, base64url) and
 * its body is cuerpoEntrega's, byte for byte (`data` is the serialised JSON).
 */
export function entregasDeEventos(scope: Pick<Actor, 'accountId' | 'entorno'>, eventos: string, ev: { decaId: number | null; json: string; now: Date }, nombre: string): Parte[] {
  const id = sql`'ev_' || translate(encode(substring(sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())) from 1 for 18), 'base64'), '+/', '-_')`;
  const cola = `{"creado_at":${JSON.stringify(isoMadrid(ev.now))},"entorno":${JSON.stringify(scope.entorno)},"data":${ev.json}}`;
  return [
    {
      nombre,
      sentencia: sql`insert into webhook_entregas (account_id, entorno, webhook_id, entrega_id, evento_id, evento, deca_id, cuerpo, estado, proximo_intento_at, created_at)
        select ${scope.accountId}::bigint, ${scope.entorno}::text, d.webhook_id, d.entrega_id, d.evento_id, d.evento, ${ev.decaId}::bigint,
          '{"id":' || to_json(d.entrega_id)::text || ',"evento":' || to_json(d.evento)::text || ',' || substring(${cola}::text from 2),
          'pendiente', ${ev.now}::timestamptz, ${ev.now}::timestamptz
        from (
          select ${id} as entrega_id, e.id as evento_id, e.evento, w.id as webhook_id
          from ${sql.table(eventos)} e
          join webhooks w on w.account_id = ${scope.accountId} and w.entorno = ${scope.entorno} and w.activo
            and (w.eventos @> '["*"]'::jsonb or w.eventos @> jsonb_build_array(e.evento))
          order by e.id, w.id
        ) d
        returning 1`,
    },
    {
      nombre: `${nombre}_aviso`,
      sentencia: sql`select pg_notify(${CANALES.entregas} || current_schema(), '') from (select 1 from ${sql.table(nombre)} limit 1) x`,
      valor: sql`(select count(*) from ${sql.table(`${nombre}_aviso`)})`,
    },
  ];
}
