import { OAuthError } from '@gatehouse/contract';

/**
 * The parameters of an `application/x-www-form-urlencoded` body, parsed by WHATWG URLSearchParams.
 * Reading a parameter enforces RFC 6749 §3.1 and §3.2: a parameter without a value counts as
 * omitted, and one sent more than once is refused. Unread (unknown) parameters are ignored.
 */
export class FormParams {
  readonly #values: Map<string, string[]>;

  private constructor(values: Map<string, string[]>) {
    this.#values = values;
  }

  static parse(body: string): FormParams {
    const values = new Map<string, string[]>();
    for (const [name, value] of new URLSearchParams(body)) {
      const list = values.get(name);
      if (list) list.push(value);
      else values.set(name, [value]);
    }
    return new FormParams(values);
  }

  static empty(): FormParams {
    return new FormParams(new Map());
  }

  /** The value, or undefined when absent or empty. */
  get(name: string): string | undefined {
    const list = this.#values.get(name);
    if (!list) return undefined;
    if (list.length > 1) throw new OAuthError('parameter_repeated', name);
    return list[0] === '' ? undefined : list[0];
  }

  /**
   * Every parameter but those `except` names, repeats included, re-encoded as a form: for a request
   * carried on (POST /authorize, a pushed authorization request without its client authentication).
   */
  serialize(except: readonly string[] = []): string {
    const form = new URLSearchParams();
    for (const [name, values] of this.#values)
      if (!except.includes(name)) for (const value of values) form.append(name, value);
    return form.toString();
  }

  require(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw new OAuthError('parameter_missing', name);
    return value;
  }
}

/** The request body as form parameters; a request without a body has none. */
export function formParamsOf(body: unknown): FormParams {
  return body instanceof FormParams ? body : FormParams.empty();
}
