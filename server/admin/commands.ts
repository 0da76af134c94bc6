import { sql, type Kysely } from 'kysely';
import { AppError, validationError } from '../../shared/errors';
import { z } from '../../shared/schemas/zod';
import { Plan, Rol, type Cuenta } from '../../shared/schemas/cuenta';
import type { DB } from '../db/schema';
import { crearClave, revocarClave } from '../domain/accounts/api-keys';
import { cambiarPlan, crearCuenta } from '../domain/accounts/cuentas';
import { presentCuenta } from '../http/presenters/cuenta';
import type { Clock } from '../clock';
import { formatMadrid } from '../../shared/rules/fechas';

/** What an administration command may use. */
export interface AdminContext {
  db: Kysely<DB>;
  clock: Clock;
}

export type Flags = Record<string, string | boolean>;

const id = z.coerce.number().int().positive();

const AccountCreateFlags = z
  .object({
    company: z.string().trim().min(1, 'Obligatorio'),
    nif: z.string().trim().min(1, 'Obligatorio'),
    address: z.string().trim().optional(),
    role: Rol.default('transportista'),
    plan: Plan.default('free'),
    email: z.email('Correo electrónico no válido').optional(),
    password: z.string().min(10, 'La contraseña debe tener al menos 10 caracteres').optional(),
  })
  .refine((f) => Boolean(f.email) === Boolean(f.password), {
    message: '--email y --password van juntos',
    path: ['password'],
  });

const KeyCreateFlags = z.object({
  account: id,
  env: z.enum(['live', 'test']),
  'read-only': z.boolean().default(false),
  name: z.string().optional(),
});

function flags<S extends z.ZodType>(schema: S, value: Flags): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues.map((i) => ({ ...i, path: i.path.map((p) => `--${String(p)}`) })));
  return r.data;
}

/**
 * The administration commands of CONTRACT.md. The CLI runs them directly on
 * the database, or through a running server's admin socket when the embedded
 * database is already open there; either way the output is the same JSON.
 */
export async function runAdminCommand(ctx: AdminContext, command: string, raw: Flags): Promise<unknown> {
  switch (command) {
    case 'account:create': {
      const f = flags(AccountCreateFlags, raw);
      const { account } = await ctx.db.transaction().execute((trx) =>
        crearCuenta(trx, {
          nombre: f.company,
          nif: f.nif,
          domicilio: f.address ?? null,
          rol: f.role,
          plan: f.plan,
          email: f.email ?? null,
          password: f.password ?? null,
        }),
      );
      const cuenta: Cuenta = presentCuenta(account);
      return { cuenta };
    }
    case 'key:create': {
      const f = flags(KeyCreateFlags, raw);
      const { row, key } = await ctx.db.transaction().execute((trx) =>
        crearClave(trx, {
          accountId: f.account,
          entorno: f.env === 'live' ? 'produccion' : 'pruebas',
          soloLectura: f['read-only'],
          nombre: f.name ?? null,
        }),
      );
      return { key, id: row.id };
    }
    case 'key:revoke': {
      const f = flags(z.object({ id }), raw);
      await ctx.db.transaction().execute((trx) => revocarClave(trx, f.id, null, ctx.clock.now()));
      return { revocada: true };
    }
    case 'plan:set': {
      const f = flags(z.object({ account: id, plan: Plan }), raw);
      const account = await ctx.db.transaction().execute((trx) => cambiarPlan(trx, f.account, f.plan));
      return { cuenta: presentCuenta(account) };
    }
    case 'mail:list': {
      const f = flags(z.object({ to: z.string().optional() }), raw);
      let q = ctx.db.selectFrom('correos').select(['destinatario', 'asunto', 'texto', 'created_at']).orderBy('id', 'asc');
      if (f.to) q = q.where(sql<string>`lower(destinatario)`, '=', f.to.trim().toLowerCase());
      const rows = await q.execute();
      return { correos: rows.map((r) => ({ to: r.destinatario, subject: r.asunto, text: r.texto, created_at: formatMadrid(r.created_at) })) };
    }
    default:
      throw new AppError(
        'peticion_invalida',
        `Orden desconocida «${command}». Órdenes: account:create, key:create, key:revoke, plan:set, mail:list.`,
      );
  }
}
