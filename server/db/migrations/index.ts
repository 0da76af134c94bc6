import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-init';
import * as m0002 from './0002-decas';
import * as m0003 from './0003-publico-correo';
import * as m0004 from './0004-webhooks';
import * as m0005 from './0005-exacto-rapido';
import * as m0006 from './0006-sin-duplicados';
import * as m0007 from './0007-autenticidad';
import * as m0008 from './0008-sello';
import * as m0009 from './0009-agenda';
import * as m0010 from './0010-usuarios';
import * as m0011 from './0011-dispositivos';
import * as m0012 from './0012-restablecer';
import * as m0013 from './0013-matriculas-conductor';
import * as m0014 from './0014-listas-por-fecha';
import * as m0015 from './0015-pdf-fuera';
import * as m0016 from './0016-decas-fillfactor';
import * as m0017 from './0017-privacidad';
import * as m0018 from './0018-creacion-sin-copia';
import * as m0019 from './0019-particiones-por-mes';
import * as m0020 from './0020-eventos-por-semana';
import * as m0021 from './0021-correos-por-mes';
import * as m0022 from './0022-fotos';
import * as m0023 from './0023-agenda-dudosa';
import * as m0024 from './0024-entregas';
import * as m0025 from './0025-firma-remota';
import * as m0026 from './0026-efti-plataforma';
import * as m0027 from './0027-efti-datos';

/** Every migration, listed explicitly and in order (no directory scanning). */
export const migrations: Record<string, Migration> = {
  '0001-init': m0001,
  '0002-decas': m0002,
  '0003-publico-correo': m0003,
  '0004-webhooks': m0004,
  '0005-exacto-rapido': m0005,
  '0006-sin-duplicados': m0006,
  '0007-autenticidad': m0007,
  '0008-sello': m0008,
  '0009-agenda': m0009,
  '0010-usuarios': m0010,
  '0011-dispositivos': m0011,
  '0012-restablecer': m0012,
  '0013-matriculas-conductor': m0013,
  '0014-listas-por-fecha': m0014,
  '0015-pdf-fuera': m0015,
  '0016-decas-fillfactor': m0016,
  '0017-privacidad': m0017,
  '0018-creacion-sin-copia': m0018,
  '0019-particiones-por-mes': m0019,
  '0020-eventos-por-semana': m0020,
  '0021-correos-por-mes': m0021,
  '0022-fotos': m0022,
  '0023-agenda-dudosa': m0023,
  '0024-entregas': m0024,
  '0025-firma-remota': m0025,
  '0026-efti-plataforma': m0026,
  '0027-efti-datos': m0027,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
