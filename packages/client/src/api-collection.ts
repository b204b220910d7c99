import {
  TOO_DEEP_DETAIL,
  allowsNull,
  missingFieldMessage,
  nestsDeeperThan,
  readOnlyFieldProblem,
  resolveSchema,
  type BodyValidator,
  type MissingField,
  type OpenApiDocument,
  type SchemaObject,
} from '@gatehouse/contract';
import type { ApiRequest } from './api-client.js';
import { InvalidResponseError, LocalValidationError, isRecord } from './errors.js';

/** A record as the API returns it: its fields and the id the server gave it. */
export type ApiRecord<T> = T & { readonly id: string };

/** A record with its version, for `ifMatch` (RFC 9110 §13.1.1). */
export interface RecordResult<T> {
  readonly record: ApiRecord<T>;
  readonly etag: string | undefined;
}

/** One page of a list; `next_cursor` is null on the last page. */
export interface RecordPage<T> {
  readonly items: readonly ApiRecord<T>[];
  readonly next_cursor: string | null;
}

/** An RFC 7396 merge patch of T: a member set to null is removed. */
export type MergePatch<T> = { readonly [K in keyof T]?: T[K] | null };

export interface WriteOptions {
  /** The ETag of the version this change is based on; a newer version answers 412. */
  readonly ifMatch?: string;
}

interface CollectionDependencies {
  readonly name: string;
  readonly validate: BodyValidator;
  readonly schema: SchemaObject;
  readonly document: OpenApiDocument;
  readonly request: (request: ApiRequest) => Promise<Response>;
}

/** The five operations of one collection (`/v2/{collection}` and `/v2/{collection}/{id}`). */
export class CollectionClient<T extends object> {
  readonly name: string;
  readonly #deps: CollectionDependencies;

  constructor(deps: CollectionDependencies) {
    this.name = deps.name;
    this.#deps = deps;
  }

  /**
   * Throws LocalValidationError when the server would refuse `body`, with the server's answer: a
   * body nested deeper than the server reads is 400 malformed-json; a required field omitted, or
   * null where its schema does not allow null, gives exactly `Missing required field '<field_name>'
   * in request body`. `id` is the record's, for a replacement: its read-only fields may be sent
   * with the record's own value.
   */
  validate(body: unknown, id?: string): void {
    refuseTooDeep(body);
    const result = this.#deps.validate(body, id === undefined ? undefined : { id });
    if (result.ok) return;
    throw result.kind === 'missing'
      ? new LocalValidationError('missing', result.fields, result.invalid)
      : new LocalValidationError('invalid', result.fields);
  }

  /** POST: validated first; nothing is sent when it would be refused. */
  async create(body: T): Promise<RecordResult<T>> {
    this.validate(body);
    return this.#record(await this.#deps.request({ method: 'POST', path: `/${this.name}`, body }));
  }

  async get(id: string): Promise<RecordResult<T>> {
    return this.#record(await this.#deps.request({ method: 'GET', path: this.#itemPath(id) }));
  }

  /** PUT: a full replacement, validated exactly like create. */
  async replace(id: string, body: T, options: WriteOptions = {}): Promise<RecordResult<T>> {
    this.validate(body, id);
    return this.#record(
      await this.#deps.request({ method: 'PUT', path: this.#itemPath(id), body, ifMatch: options.ifMatch }),
    );
  }

  /**
   * PATCH with an RFC 7396 merge patch. The server validates the merged record; locally, a
   * required field patched to null is refused, since the merged record certainly lacks it.
   */
  async patch(id: string, patch: MergePatch<T>, options: WriteOptions = {}): Promise<RecordResult<T>> {
    refuseTooDeep(patch);
    const missing = requiredFieldsNulled(this.#deps.document, this.#deps.schema, patch, '', '');
    if (missing.length > 0) throw new LocalValidationError('missing', missing);
    // The merged record is validated with the record's id: a read-only field patched to another value is a 422.
    const readOnly = this.#deps.validate.readOnly.filter((name) => {
      const value = (patch as Record<string, unknown>)[name];
      return Object.hasOwn(patch, name) && value !== null && !(name === 'id' && value === id);
    });
    if (readOnly.length > 0) throw new LocalValidationError('invalid', readOnly.map(readOnlyFieldProblem));
    return this.#record(
      await this.#deps.request({
        method: 'PATCH',
        path: this.#itemPath(id),
        body: patch,
        contentType: 'application/merge-patch+json',
        ifMatch: options.ifMatch,
      }),
    );
  }

  async remove(id: string, options: WriteOptions = {}): Promise<void> {
    const response = await this.#deps.request({ method: 'DELETE', path: this.#itemPath(id), ifMatch: options.ifMatch });
    await response.body?.cancel();
  }

  /** One page; pass the previous page's `next_cursor` for the next. */
  async list(options: { readonly cursor?: string; readonly limit?: number } = {}): Promise<RecordPage<T>> {
    const query = new URLSearchParams();
    if (options.cursor !== undefined) query.set('cursor', options.cursor);
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    const search = query.toString();
    const suffix = search === '' ? '' : `?${search}`;
    const body = await jsonBody(await this.#deps.request({ method: 'GET', path: `/${this.name}${suffix}` }));
    if (
      !isRecord(body) ||
      !Array.isArray(body.items) ||
      !(typeof body.next_cursor === 'string' || body.next_cursor === null)
    ) {
      throw new InvalidResponseError(`the list of ${this.name} is not a page of items`);
    }
    return body as unknown as RecordPage<T>;
  }

  #itemPath(id: string): string {
    return `/${this.name}/${encodeURIComponent(id)}`;
  }

  async #record(response: Response): Promise<RecordResult<T>> {
    const body = await jsonBody(response);
    if (!isRecord(body) || typeof body.id !== 'string')
      throw new InvalidResponseError(`the ${this.name} record has no id`, response.status);
    return { record: body as ApiRecord<T>, etag: response.headers.get('etag') ?? undefined };
  }
}

async function jsonBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new InvalidResponseError(`the API answered ${response.status} without a JSON body`, response.status);
  }
}

/** The server reads at most MAX_JSON_DEPTH levels of nesting (RFC 8259 §9); it answers 400 malformed-json. */
function refuseTooDeep(body: unknown): void {
  if (nestsDeeperThan(body))
    throw new LocalValidationError('malformed', [{ field: '', pointer: '', message: TOO_DEEP_DETAIL }]);
}

/** Required fields that `patch` sets to null where their schema does not allow null, nested objects included. */
function requiredFieldsNulled(
  doc: OpenApiDocument,
  schema: SchemaObject,
  patch: unknown,
  field: string,
  pointer: string,
): MissingField[] {
  if (!isRecord(patch)) return [];
  const missing: MissingField[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const reference = schema.properties?.[key];
    const property = reference === undefined ? undefined : resolveSchema(doc, reference);
    const name = field === '' ? key : `${field}.${key}`;
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (
      value === null &&
      schema.required?.includes(key) &&
      !(reference !== undefined && allowsNull(doc, reference)) &&
      property?.readOnly !== true
    ) {
      missing.push({ field: name, pointer: at, message: missingFieldMessage(name) });
    } else if (property !== undefined && isRecord(value)) {
      missing.push(...requiredFieldsNulled(doc, property, value, name, at));
    }
  }
  return missing;
}
