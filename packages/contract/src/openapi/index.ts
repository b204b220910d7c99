/** Public surface of the OpenAPI support: document checking, body validation, merge patch. */
export {
  OpenApiDocumentError,
  checkOpenApiDocument,
  type DocumentCheckOptions,
  listCollections,
  itemPathOf,
  openApiVersion,
  resolveSchema,
  type DocumentLocation,
  HTTP_METHODS,
  type CollectionDeclaration,
  type ComponentsObject,
  type HttpMethod,
  type MediaTypeObject,
  type OpenApiDocument,
  type OpenApiVersion,
  type OperationObject,
  type PathItemObject,
  type ReferenceObject,
  type RequestBodyObject,
  type SchemaObject,
  type SchemaOrReference,
  type SchemaType,
} from './document.js';
export { missingFieldMessage, type FieldProblem, type InvalidField, type MissingField } from './field-errors.js';
export {
  compileBodyValidator,
  compileCollectionValidators,
  type BodyValidationResult,
  type BodyValidator,
} from './validator.js';
export { refusedBody } from './refused-body.js';
export { mergePatch } from './merge-patch.js';
export { allowsNull } from './translate.js';
export { readOnlyFieldProblem } from './read-only.js';
export { MAX_JSON_DEPTH, TOO_DEEP_DETAIL, nestsDeeperThan } from './json-depth.js';
