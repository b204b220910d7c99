import {
  checkOpenApiDocument,
  compileBodyValidator,
  type BodyValidator,
  type OpenApiDocument,
} from '@gatehouse/contract';
import { ADMIN_BODIES, adminDocument, type AdminBodyOperation } from './document.js';

/** The admin API's document, checked, with the validator of each request body compiled once. */
export interface AdminDefinition {
  readonly document: OpenApiDocument;
  /** The document as served, serialised once. */
  readonly served: string;
  readonly bodies: Readonly<Record<AdminBodyOperation, BodyValidator>>;
}

/**
 * Checks the document as the contract checks any (its paths are not REST collections, hence
 * `anyShape`) and compiles each request body's schema with the contract's validator: the same
 * validator, and so the same missing-field 400 and 422, as the REST API's.
 */
export function adminDefinition(issuer: string): AdminDefinition {
  let definition = definitions.get(issuer);
  if (definition === undefined) {
    definition = compileAdminDefinition(issuer);
    definitions.set(issuer, definition);
  }
  return definition;
}

// Compiled once per issuer (the document names it), not once per app: tests build many apps.
const definitions = new Map<string, AdminDefinition>();

function compileAdminDefinition(issuer: string): AdminDefinition {
  const document = checkOpenApiDocument(adminDocument(issuer), { anyShape: true });
  const bodies = Object.fromEntries(
    Object.entries(ADMIN_BODIES).map(([operation, schema]) => [
      operation,
      compileBodyValidator(document, { $ref: `#/components/schemas/${schema}` }, ['components', 'schemas', schema]),
    ]),
  ) as Record<AdminBodyOperation, BodyValidator>;
  return { document, served: JSON.stringify(document), bodies };
}
