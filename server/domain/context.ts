import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import type { DecaPdfRenderer } from '../documents/pdf-pool';

/**
 * What the DeCA use cases need besides the actor. They open their own
 * transactions because the PDF is rendered between them (see crear.ts).
 */
export interface DomainContext {
  db: Kysely<DB>;
  clock: Clock;
  renderPdf: DecaPdfRenderer;
  /** Public site root, for the URLs printed on the document. */
  siteUrl: string;
}
