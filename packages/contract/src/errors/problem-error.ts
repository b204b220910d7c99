import { PROBLEMS, type ProblemBody, type ProblemCode, type ProblemFieldError } from './problems.js';

/**
 * A REST problem the server answers, made only from a catalog code (RFC 9457). `detail` defaults
 * to the catalog's summary; field-level problems are listed in `errors`.
 */
export class ProblemError extends Error {
  // Set by `fill`, below, for the constructor and `answer` alike.
  declare readonly code: ProblemCode;
  declare readonly status: number;
  declare readonly detail: string;
  declare readonly errors: readonly ProblemFieldError[] | undefined;

  constructor(code: ProblemCode, detail?: string, errors?: readonly ProblemFieldError[]) {
    super(detail ?? PROBLEMS[code].summary);
    fill(this, code, detail, errors);
  }

  /**
   * The same problem made without Error's constructor, for a problem that is an answer, never a
   * fault (a refused body): nothing reads its stack, and V8's Error construction costs even when it
   * captures none (`Error.stackTraceLimit = 0` still leaves the runtime call; 2.3% of the server's
   * samples in the bench's `rest-400` profile; made and rendered, 1.8 µs became 1.2 µs). It is still
   * a ProblemError (and an Error) to `instanceof`, with its `name` and `message`, and it may be
   * thrown; it has no `stack`.
   */
  static answer(code: ProblemCode, detail?: string, errors?: readonly ProblemFieldError[]): ProblemError {
    const problem = Object.create(ProblemError.prototype) as ProblemError;
    fill(problem, code, detail, errors);
    return problem;
  }

  toBody(instance: string): ProblemBody {
    const entry = PROBLEMS[this.code];
    return {
      type: `/problems/${entry.slug}`,
      title: entry.title,
      status: entry.status,
      detail: this.detail,
      instance,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }

  /**
   * `JSON.stringify(this.toBody(instance))`, byte for byte, without building the body: the catalog's
   * part (type, title, status) is serialised once per code. Servers answer with this.
   */
  toJson(instance: string): string {
    const errors = this.errors ? `,"errors":${JSON.stringify(this.errors)}` : '';
    return `${PROBLEM_HEADS[this.code]}${JSON.stringify(this.detail)},"instance":${JSON.stringify(instance)}${errors}}`;
  }
}

/** A problem's own fields, from its catalog entry: what the constructor and `answer` both set. */
function fill(
  problem: ProblemError,
  code: ProblemCode,
  detail: string | undefined,
  errors: readonly ProblemFieldError[] | undefined,
): void {
  const entry = PROBLEMS[code];
  const writable = problem as {
    -readonly [K in 'name' | 'message' | 'code' | 'status' | 'detail' | 'errors']: ProblemError[K];
  };
  writable.name = 'ProblemError';
  writable.message = detail ?? entry.summary;
  writable.code = code;
  writable.status = entry.status;
  writable.detail = detail ?? entry.summary;
  writable.errors = errors;
}

/** `{"type":…,"title":…,"status":…,"detail":` of each catalog entry, in toBody's order. */
const PROBLEM_HEADS = Object.fromEntries(
  (Object.keys(PROBLEMS) as ProblemCode[]).map((code) => {
    const entry = PROBLEMS[code];
    return [
      code,
      `{"type":${JSON.stringify(`/problems/${entry.slug}`)},"title":${JSON.stringify(entry.title)},"status":${entry.status},"detail":`,
    ];
  }),
) as Readonly<Record<ProblemCode, string>>;
